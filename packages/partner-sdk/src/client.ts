import createClient, { type Client, type ClientOptions } from "openapi-fetch";
import type { paths } from "./openapi";
import { type Credentials, TokenCache, type TokenCacheOptions } from "./token-cache";

export type PartnerClientOptions = TokenCacheOptions & {
  /** The Partner API's base URL, ending in `/api` (e.g. `https://partners.example.com/api`). */
  baseUrl: string;
  credentials: Credentials;
  /** A fetch of your own (a proxy, a test recorder); the global one otherwise. */
  fetch?: ClientOptions["fetch"];
  /**
   * A 429 (the client's request limit) is sent again after its `Retry-After`, at most this many
   * times (default 3; 0 hands every 429 back). A 429 means nothing was done, so a POST is safe to repeat.
   */
  rateLimitRetries?: number;
  /** A `Retry-After` longer than this (seconds, default 60) is not waited for: the 429 is handed back. */
  maxRetryAfterSeconds?: number;
};

export type PartnerClient = Client<paths> & { tokens: TokenCache };

/**
 * A typed client of every Partner API route (types generated from `/api/openapi.json`): each call
 * carries `Authorization: Bearer` from a token cache that exchanges the client credentials at
 * `/token` on first use and again shortly before expiry, one exchange at a time. A 401 answer
 * drops the cached token, so the next call exchanges again. A 429 is retried after `Retry-After`.
 */
export function createPartnerClient(options: PartnerClientOptions): PartnerClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const fetchImpl = retryingRateLimits(options.fetch ?? ((request: Request) => globalThis.fetch(request)), options);
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

type Fetch = (request: Request) => Promise<Response>;

/**
 * Sends a request again when the service answers 429 (its request limit: `RateLimit-*` and
 * `Retry-After` on the answer), after the seconds `Retry-After` gives (or the HTTP date it names), a
 * bounded number of times; the last 429 is handed back as any other answer.
 */
function retryingRateLimits(send: Fetch, options: Pick<PartnerClientOptions, "rateLimitRetries" | "maxRetryAfterSeconds">): Fetch {
  const retries = Math.max(0, options.rateLimitRetries ?? 3);
  const longest = options.maxRetryAfterSeconds ?? 60;
  return async (request) => {
    let current = request;
    for (let attempt = 0; ; attempt++) {
      // The body is read by each send: the copy keeps it for the next.
      const copy = attempt < retries ? current.clone() : undefined;
      const response = await send(current);
      const wait = response.status === 429 && copy ? retryAfterSeconds(response.headers.get("retry-after")) : undefined;
      if (!copy || wait === undefined || wait > longest) return response;
      await response.arrayBuffer().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
      current = copy;
    }
  };
}

/** `Retry-After` as seconds to wait: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined if absent or unreadable. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000);
}
