/** Messages of the `Idempotency-Key` answers partners match on (decisions §16). */
export const IDEMPOTENCY_MESSAGES = {
  invalidKey: "Idempotency-Key must be 1 to 255 visible ASCII characters",
  reused: "Idempotency-Key was used with another request",
  inFlight: "A request with this Idempotency-Key is still in progress; retry later",
} as const;
