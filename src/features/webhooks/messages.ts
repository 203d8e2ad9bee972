export const WEBHOOK_MESSAGES = {
  invalid: "Webhook endpoint is invalid",
  httpsOnly: "must be an HTTPS URL",
  privateDestination: "must not point to a loopback, private, link-local or metadata address",
  unknownEvent: (name: string) => `is not an event name: ${name}`,
  noEvents: "must list at least one event",
  endpointNotFound: "Webhook endpoint not found",
  deliveryNotFound: "Webhook delivery not found",
  providerNotFound: "Provider subscription not found",
  providerNotYours: "Client is not the provider subscription's client",
  alreadyScheduled: "Delivery is already scheduled; only failed or delivered deliveries can be retried",
  endpointDeleted: "endpoint was deleted",
  rateLimited: (perMinute: number) => `rate limited: ${perMinute} deliveries per minute per endpoint`,
} as const;
