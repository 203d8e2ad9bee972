import { errors } from "../../../server/errors";
import { publicRestProcedure } from "../procedures";
import type { Gateway } from "../scopes";
import { exchangeClientCredentials } from "../token-exchange";
import { tokenInput, tokenMeta, tokenOutput } from "./token.types";

/** `POST {base_url}/token` and `POST {event_base_url}/token` (spec Token exchange). */
export function tokenProcedure(gateway: Gateway) {
  return publicRestProcedure
    .meta(tokenMeta(gateway))
    .input(tokenInput)
    .output(tokenOutput)
    .mutation(async ({ ctx, input }) => {
      if (input.grant_type !== "client_credentials") {
        throw errors.oauth("unsupported_grant_type", "grant_type must be client_credentials");
      }
      return exchangeClientCredentials(ctx.db, gateway, input);
    });
}
