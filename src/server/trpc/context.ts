import type pino from "pino";
import type { Db } from "../db/client";
import type { AppError } from "../errors";

/** An answer an `Idempotency-Key` keeps (docs/decisions.md, "Partner developer: idempotency keys"). */
export type KeptAnswer = { status: number; body: string | null; headers: Record<string, string> };

/**
 * A request limit's standing for the `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`
 * headers (docs/decisions.md, "Partner developer: rate limits"): the burst, the requests left, and
 * the whole seconds until the bucket is full again.
 */
export type RateLimitState = { limit: number; remaining: number; resetSeconds: number };

/** What the REST wrapper knows about one HTTP request; shared by reference with every middleware. */
export type RestState = {
  requestId: string;
  method: string;
  /** Path and query exactly as received, e.g. `/api/partners/acme/prospects?x=1` (request signatures). */
  pathWithQuery: string;
  /** Read with `get`, as `Headers` is (a web request's headers, or Node's through the same reader). */
  headers: { get(name: string): string | null };
  rawBody: string;
  /** A body problem (wrong media type, bad JSON) answered only once the caller is authenticated. */
  bodyProblem?: AppError;
  /** HTTP status a procedure chose for its success answer (e.g. 201 on create). */
  status?: number;
  /** The error answer decided by `onError`, written by the wrapper. */
  error?: AppError;
  /** The matched procedure (its OpenAPI path is the request's metrics label). */
  procedure?: string;
  /** Who called, for the access log. */
  clientId?: string;
  /** The kept answer of the `Idempotency-Key` this request repeats: the wrapper answers it as is, with `Idempotent-Replayed: true`. */
  replay?: KeptAnswer;
  /** Set once a request limit counted this request: the wrapper answers its headers, whatever the status. */
  rateLimit?: RateLimitState;
  /**
   * Subscribes to the caller going away before its answer (its connection closed): a request waiting
   * for a Partner API slot is then dropped unrun (docs/decisions.md, "A fair Partner API").
   */
  whenCallerGone?: (listener: () => void) => () => void;
  /** The caller went away while the request waited: nothing is answered; logged and counted as 499. */
  callerGone?: boolean;
  /** Set when this request claimed an `Idempotency-Key`: the wrapper calls it with the final answer, to keep it or release the key. */
  settle?: (answer: KeptAnswer) => Promise<void>;
};

export type ConsoleUser = { id: number; email: string; role: "operator" | "account_manager" };

export type Context = {
  db: Db;
  log: pino.Logger;
  requestId: string;
  /** Present on REST calls. */
  rest?: RestState;
  /** Present on console calls from a signed-in user. */
  user?: ConsoleUser | null;
};
