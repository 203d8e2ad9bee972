/** Messages of the `Idempotency-Key` answers partners match on (decisions §16). */
export const IDEMPOTENCY_MESSAGES = {
  invalidKey: "Idempotency-Key must be 1 to 255 visible ASCII characters",
  reused: "Idempotency-Key was used with another request",
  inFlight: "A request with this Idempotency-Key is still in progress; retry later",
} as const;

/** Messages of the request limits' 429 answers (decisions §17; docs/decisions.md, "Partner developer: rate limits"). */
export const RATE_LIMIT_MESSAGES = {
  api: "Too many requests for this client: retry after the seconds Retry-After gives",
  token: "Too many token requests: retry after the seconds Retry-After gives",
  /** The client's queue of requests waiting for this server is full (docs/decisions.md, "A fair Partner API"). */
  queueFull: "Too many requests of this client are waiting: retry after the seconds Retry-After gives",
  /** The request waited its longest for a turn and was not run. */
  queueTimeout: "The request waited too long for its turn and was not run: retry after the seconds Retry-After gives",
} as const;
