import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "./openapi";
import { type Credentials, TokenCache, type TokenCacheOptions } from "./token-cache";

export type PartnerClientOptions = TokenCacheOptions & {
  /** The Partner API's base URL, ending in `/api` (e.g. `https://partners.example.com/api`). */
  baseUrl: string;
  credentials: Credentials;
  /** A fetch of your own (a proxy, a test recorder); the global one otherwise. */
  fetch?: ClientOptions["fetch"];
};

export type PartnerClient = Client<paths> & { tokens: TokenCache };

/**
 * A typed client of every Partner API route (types generated from `/api/openapi.json`): each call
 * carries `Authorization: Bearer` from a token cache that exchanges the client credentials at
 * `/token` on first use and again shortly before expiry, one exchange at a time. A 401 answer
 * drops the cached token, so the next call exchanges again.
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const fetchImpl = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const tokens = new TokenCache(`${baseUrl}/token`, options.credentials, (input, init) => fetchImpl(new Request(input, init)), options);
  const client = createClient<paths>({ baseUrl, fetch: fetchImpl });
  client.use({
    async onRequest({ request, schemaPath }) {
      if (schemaPath === "/token") return request;
      request.headers.set("authorization", `Bearer ${await tokens.token()}`);
      return request;
    },
    onResponse({ response, schemaPath }) {
      if (response.status === 401 && schemaPath !== "/token") tokens.invalidate();
      return response;
    },
  });
  return Object.assign(client, { tokens });
}
