/** The answer of `POST /token` (client credentials grant). */
export type TokenAnswer = { access_token: string; token_type: "Bearer"; scope: string; expires_in: number };

export type Credentials = {
  clientId: string;
  clientSecret: string;
  /** The audience the credentials were issued for (shown with the credentials). */
  audience: string;
  /** A space-separated subset of the granted scopes; every granted scope when left out. */
  scope?: string;
};

export type TokenCacheOptions = {
  /** Refresh this many seconds before the token expires (default 60). */
  refreshMarginSeconds?: number;
  /** The clock, in milliseconds (tests pass their own). */
  now?: () => number;
};

/** An error answer of `POST /token`: OAuth's `{error, error_description}` with the HTTP status. */
export class TokenError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`token exchange failed with HTTP ${status}`);
    this.name = "TokenError";
  }
}

/**
 * One access token per set of credentials: fetched on first use, reused until `refreshMarginSeconds`
 * before `expires_in` runs out, then replaced. Concurrent callers share one exchange in flight.
 */
export class TokenCache {
  private current: { token: string; refreshAt: number } | undefined;
  private inFlight: Promise<string> | undefined;
  private readonly margin: number;
  private readonly now: () => number;
  /** How many exchanges this cache made (for monitoring and tests). */
  exchanges = 0;

  constructor(
    private readonly tokenUrl: string,
    private readonly credentials: Credentials,
    private readonly fetchImpl: typeof fetch = globalThis.fetch,
    options: TokenCacheOptions = {},
  ) {
    this.margin = (options.refreshMarginSeconds ?? 60) * 1000;
    this.now = options.now ?? Date.now;
  }

  /** A valid token, from the cache or from one exchange shared by every concurrent caller. */
  async token(): Promise<string> {
    if (this.current && this.now() < this.current.refreshAt) return this.current.token;
    this.inFlight ??= this.exchange().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Forgets the cached token (after a 401, for example): the next call exchanges again. */
  invalidate(): void {
    this.current = undefined;
  }

  private async exchange(): Promise<string> {
    this.exchanges += 1;
    const { clientId, clientSecret, audience, scope } = this.credentials;
    const requestedAt = this.now();
    const response = await this.fetchImpl(this.tokenUrl, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", client_id: clientId, client_secret: clientSecret, audience, scope }),
    });
    const body = (await response.json().catch(() => undefined)) as TokenAnswer | undefined;
    if (!response.ok || !body?.access_token) throw new TokenError(response.status, body);
    // Counted from the request's start, so a slow answer never makes the token look younger than it is.
    const lifetime = body.expires_in * 1000;
    this.current = { token: body.access_token, refreshAt: requestedAt + Math.max(lifetime - this.margin, lifetime / 2) };
    return body.access_token;
  }
}
