import { getConfig } from "../../../server/config";
import { errors } from "../../../server/errors";
import { jsonBody } from "../../../server/http/json-body";
import { clientAddressOf } from "../../console/client-address";
import { RATE_LIMIT_MESSAGES } from "../messages";
import { countRequest, publicRestProcedure } from "../procedures";
import type { Gateway } from "../scopes";
import { exchangeClientCredentials } from "../token-exchange";
import { tokenInput, tokenMeta, tokenOutput } from "./token.types";

/**
 * `POST {base_url}/token` and `POST {event_base_url}/token` (spec Token exchange), limited per client
 * address before the body is read, then per `client_id` (decisions §17; docs/decisions.md, "Partner
 * developer: rate limits"), before any credential is checked.
 */
export function tokenProcedure(gateway: Gateway) {
  return publicRestProcedure
    .use(async ({ ctx, next }) => {
      if (ctx.rest) {
        const address = clientAddressOf({ "x-forwarded-for": ctx.rest.headers.get("x-forwarded-for") ?? undefined });
        await countRequest(ctx.db, ctx.rest, `token-address:${address}`, getConfig().tokenRateLimitPerAddressPerSecond, RATE_LIMIT_MESSAGES.token);
      }
      return next();
    })
    .meta(tokenMeta(gateway))
    .input(jsonBody(tokenInput))
    .output(tokenOutput)
    .mutation(async ({ ctx, input }) => {
      if (ctx.rest) await countRequest(ctx.db, ctx.rest, `token:${input.client_id}`, getConfig().tokenRateLimitPerSecond, RATE_LIMIT_MESSAGES.token);
      if (input.grant_type !== "client_credentials") {
        throw errors.oauth("unsupported_grant_type", "grant_type must be client_credentials");
      }
      return exchangeClientCredentials(ctx.db, gateway, input);
    });
}
