export { createPartnerClient, type PartnerClient, type PartnerClientOptions } from "./client";
export type { components, operations, paths } from "./openapi";
export { type Credentials, TokenCache, type TokenCacheOptions, TokenError } from "./token-cache";
export {
  type VerificationFailure,
  type VerifyOptions,
  verifyWebhook,
  type WebhookHeaders,
  type WebhookPayload,
  WebhookVerificationError,
} from "./verify-webhook";
