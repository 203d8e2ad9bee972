import { z } from "zod";
import { INGESTION_SCOPES, PARTNER_SCOPES, scopesOfGateway } from "../scopes";
import { ACCESS_MESSAGES as M } from "./messages";

/**
 * The inputs of the console's API client procedures, in a module without server imports: the
 * client screens' forms check the very same schemas in the browser (CONTRIBUTING.md, "A console
 * form").
 */

const SCOPE_NAMES = [...PARTNER_SCOPES, ...INGESTION_SCOPES] as const;
export const clientGateway = z.enum(["partner", "ingestion"]);
const scopeName = z.enum(SCOPE_NAMES);
export const clientIdInput = z.object({ client_id: z.string().trim().min(1).max(100) });

export const clientSearchInput = z.object({
  query: z.string().trim().max(200).optional(),
  gateway: clientGateway.optional(),
  provider: z.string().trim().max(64).optional(),
});

/**
 * Create: the gateway's scopes by default; a chosen scope of another gateway names the field. An
 * ingestion client may name its partner client (decisions §15 Ingestion); `createClient` checks it.
 */
export const clientCreateInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    gateway: clientGateway,
    provider_code: z
      .string()
      .trim()
      .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, M.providerCodeInvalid)
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /** Absent: all of the gateway's scopes; given: at least one. */
    scopes: z.array(scopeName).min(1, M.scopesRequired).max(SCOPE_NAMES.length).optional(),
    require_signature: z.boolean().default(false),
    partner_client_id: z
      .string()
      .trim()
      .max(100)
      .optional()
      .transform((value) => value || undefined),
  })
  .superRefine((input, ctx) => {
    const foreign = (input.scopes ?? []).filter((scope) => !scopesOfGateway(input.gateway).includes(scope));
    if (foreign.length) ctx.addIssue({ code: "custom", path: ["scopes"], message: M.scopesForeign(input.gateway, foreign) });
  });

export const clientUpdateInput = clientIdInput.extend({
  scopes: z.array(scopeName).min(1, M.scopesRequired).max(SCOPE_NAMES.length).optional(),
  require_signature: z.boolean().optional(),
});

export const clientStatusInput = clientIdInput.extend({ disabled: z.boolean() });
