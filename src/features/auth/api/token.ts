import { errors } from "../../../server/errors";
import { jsonBody } from "../../../server/http/json-body";
import { publicRestProcedure } from "../procedures";
import type { Gateway } from "../scopes";
import { exchangeClientCredentials } from "../token-exchange";
import { tokenInput, tokenMeta, tokenOutput } from "./token.types";

/** `POST {base_url}/token` and `POST {event_base_url}/token` (spec Token exchange). */
export function tokenProcedure(gateway: Gateway) {
  return publicRestProcedure
    .meta(tokenMeta(gateway))
    .input(jsonBody(tokenInput))
    .output(tokenOutput)
    .mutation(async ({ ctx, input }) => {
      if (input.grant_type !== "client_credentials") {
        throw errors.oauth("unsupported_grant_type", "grant_type must be client_credentials");
      }
      return exchangeClientCredentials(ctx.db, gateway, input);
    });
}
