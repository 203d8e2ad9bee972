import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { constantTimeEqual } from "../../server/secrets";
import { authenticateClient } from "./clients";
import { type Gateway, parseScopeParam } from "./scopes";
import { audienceOf, issueAccessToken, TOKEN_LIFETIME_SECONDS } from "./tokens";

/**
 * spec Token exchange 1-5. A wrong client, secret, audience or gateway all answer the same 401,
 * never naming which half was wrong. A `scope` narrows the token; asking for a scope the client was
 * not granted is refused (RFC 6749 §5.2 `invalid_scope`) rather than silently dropped.
 */
export async function exchangeClientCredentials(
  tx: Tx,
  gateway: Gateway,
  input: { client_id: string; client_secret: string; audience: string; scope?: string },
) {
  const client = await authenticateClient(tx, input.client_id, input.client_secret);
  const audienceMatches = constantTimeEqual(input.audience, audienceOf(gateway));
  if (!client || !audienceMatches || client.gateway !== gateway) throw errors.accessDenied();
  let scopes = client.scopes as ReturnType<typeof parseScopeParam>["scopes"];
  if (input.scope !== undefined && input.scope.trim() !== "") {
    const requested = parseScopeParam(gateway, input.scope);
    const notGranted = [...requested.unknown, ...requested.scopes.filter((scope) => !client.scopes.includes(scope))];
    if (notGranted.length) throw errors.oauth("invalid_scope", `Scopes not granted to this client: ${notGranted.join(" ")}`);
    scopes = requested.scopes;
  }
  const accessToken = await issueAccessToken({ clientId: client.id, gateway, scopes, secretVersion: client.secretVersion });
  return { access_token: accessToken, token_type: "Bearer" as const, scope: scopes.join(" "), expires_in: TOKEN_LIFETIME_SECONDS };
}
