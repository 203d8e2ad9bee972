import { getConfig } from "../../server/config";
import { AppError, errors, GATEWAY_MESSAGES, toTRPCError } from "../../server/errors";
import { decodePathParam, findBadTextInRequest } from "../../server/http/bad-text";
import { invalidInput } from "../../server/http/input-errors";
import type { Context, RestState } from "../../server/trpc/context";
import { baseProcedure, t } from "../../server/trpc/init";
import type { AuditActor } from "../audit/audit";
import { can, type Permission } from "../console/permissions";
import { gatedDb } from "../owners/merge/gate";
import type { propertyOwners } from "../owners/owners.table";
import { type ApiClient, clientSecretOf, findActiveClientCached, ownerForClient } from "./clients";
import { claimIdempotencyKey, fingerprintOf, holdIdempotencyClaim, isValidIdempotencyKey, settleIdempotencyKey } from "./idempotency";
import { IDEMPOTENCY_MESSAGES, RATE_LIMIT_MESSAGES } from "./messages";
import { createRateLimiter, policyOf } from "./rate-limit";
import { isValidRequestSignature } from "./request-signature";
import { createRequestSlots } from "./request-slots";
import type { Gateway, IngestionScope, PartnerScope, Scope } from "./scopes";
import { verifyAccessTokenCached } from "./tokens";

/**
 * The named procedure builders. Every partner route uses one of them, and the order of checks is
 * fixed here, once: gateway authentication (401) → request limit (429, Partner API) → a slot of the
 * process's fair queue (wait, or 429; Partner API) → scope (403) →
 * request body hygiene (415/400) → owner slug (404) → owner grant (403) → request signature (401) →
 * `Idempotency-Key` (400/409/422 or a replay) → input validation (422). Each starts from
 * `baseProcedure` (`server/trpc/init.ts`), where a failure gets its status once.
 */

export type OwnerRow = typeof propertyOwners.$inferSelect;

const restOnly = t.middleware(({ ctx, next }) => {
  if (!ctx.rest) throw toTRPCError(errors.notFound());
  return next({ ctx: { rest: ctx.rest } });
});

function authenticate(gateway: Gateway) {
  return t.middleware(async ({ ctx, next }) => {
    const header = ctx.rest?.headers.get("authorization") ?? "";
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const claims = match ? await verifyAccessTokenCached(match[1], gateway) : undefined;
    // Read on every request, through a cache of a few seconds (docs/decisions.md, Caches).
    const client = claims ? await findActiveClientCached(ctx.db, claims.clientId) : undefined;
    // A token issued before the client's secret was rotated is revoked with the old secret.
    if (!claims || !client || client.gateway !== gateway || (claims.secretVersion ?? 1) !== client.secretVersion)
      throw toTRPCError(errors.gatewayUnauthorized());
    if (ctx.rest) ctx.rest.clientId = client.id;
    // A scope removed from the client since the token was issued no longer counts.
    const tokenScopes = claims.scopes.filter((scope) => client.scopes.includes(scope));
    return next({ ctx: { client, tokenScopes } });
  });
}

/** This process's request limiter (docs/decisions.md, "Partner developer: rate limits"). */
export const requestLimiter = createRateLimiter();

/**
 * decisions §17 "The Partner API is fair too": each client's requests are counted across every web
 * process, once it is known who calls; beyond the limit 429 `{status_code, error}` with `Retry-After`.
 * The `RateLimit-*` headers go on every answer of a counted request (`RestState.rateLimit`).
 */
const clientRequestLimit = t.middleware(async ({ ctx, next }) => {
  if (ctx.rest) {
    const clientId = (ctx as unknown as { client: ApiClient }).client.id;
    await countRequest(ctx.db, ctx.rest, `api:${clientId}`, getConfig().apiRateLimitPerSecond, RATE_LIMIT_MESSAGES.api);
  }
  return next();
});

/**
 * Counts a request under `key` at `perSecond` (0: not counted). The `RateLimit-*` headers show the
 * tightest limit the request was counted under; beyond one, 429 with `Retry-After`.
 */
export async function countRequest(db: Context["db"], rest: RestState, key: string, perSecond: number, message: string): Promise<void> {
  const policy = policyOf(perSecond);
  if (!policy) return;
  const decision = await requestLimiter.take(db, key, policy);
  if (!rest.rateLimit || decision.state.remaining / decision.state.limit < rest.rateLimit.remaining / rest.rateLimit.limit) rest.rateLimit = decision.state;
  if (!decision.admitted) {
    rest.rateLimit = decision.state;
    throw toTRPCError(errors.tooManyRequests(message, decision.retryAfterSeconds));
  }
}

/** This process's Partner API slots and their fair queue (docs/decisions.md, "A fair Partner API"). */
export const partnerSlots = createRequestSlots(() => {
  const config = getConfig();
  return { slots: config.apiMaxConcurrent, queuePerClient: config.apiMaxQueuedPerClient, maxWaitMs: config.apiMaxQueueWaitSeconds * 1000 };
});

/**
 * decisions §17 "The Partner API is fair too", within a process: at most `API_MAX_CONCURRENT`
 * requests run at once and a client's others wait their turn, taken fairly across clients; beyond
 * its queue's bound, or after waiting `API_MAX_QUEUE_WAIT_SECONDS`, 429 as the request limit answers
 * (its `RateLimit-*` headers included), and nothing is done. What runs under the slot is every later
 * check and the procedure itself: the costly part of a request.
 */
const clientFairShare = t.middleware(async ({ ctx, next }) => {
  const rest = ctx.rest;
  if (!rest) return next();
  const clientId = (ctx as unknown as { client: ApiClient }).client.id;
  const turn = await partnerSlots.acquire(clientId, rest.whenCallerGone);
  if (turn.kind === "gone") rest.callerGone = true;
  if (turn.kind !== "run")
    throw toTRPCError(errors.tooManyRequests(turn.kind === "timeout" ? RATE_LIMIT_MESSAGES.queueTimeout : RATE_LIMIT_MESSAGES.queueFull, 1));
  try {
    return await next();
  } finally {
    turn.release();
  }
});

function requireScope(scope: Scope) {
  return t.middleware(({ ctx, next }) => {
    const scopes = (ctx as unknown as { tokenScopes: Scope[] }).tokenScopes;
    if (!scopes.includes(scope)) throw toTRPCError(errors.gatewayForbidden());
    return next();
  });
}

/**
 * Deferred so that an unauthenticated caller learns only that it is unauthenticated: the body's
 * media type and syntax (415/400), then text no field may hold (422 in the route's shape, naming
 * the field; docs/decisions.md, Requests and errors), before anything is looked up or stored.
 */
const bodyHygiene = t.middleware(async ({ ctx, meta, getRawInput, next }) => {
  if (ctx.rest?.bodyProblem) throw toTRPCError(ctx.rest.bodyProblem);
  const bad = findBadTextInRequest(await getRawInput(), meta);
  if (bad) throw toTRPCError(invalidInput(meta?.inputErrors, [bad]));
  return next();
});

/**
 * `Idempotency-Key` on a Partner API POST (decisions §16; docs/decisions.md, "Partner developer:
 * idempotency keys"), last of every builder's checks, so a kept answer is repeated only to a caller
 * that passes them all today (its owner grant and request signature included): a bad key 400; a key
 * already held answers its kept answer (the REST wrapper writes it, `Idempotent-Replayed: true`),
 * 422 (another request) or 409 (in flight), and the procedure does not run; a new key is claimed,
 * and the wrapper settles it with the final answer.
 */
const idempotencyKey = t.middleware(async ({ ctx, next }) => {
  const rest = ctx.rest;
  const key = rest?.method === "POST" ? rest.headers.get("idempotency-key") : null;
  if (!rest || key === null) return next();
  if (!isValidIdempotencyKey(key)) throw toTRPCError(errors.badRequest(IDEMPOTENCY_MESSAGES.invalidKey));
  const clientId = (ctx as unknown as { client: ApiClient }).client.id;
  const claim = await claimIdempotencyKey(ctx.db, clientId, key, fingerprintOf(rest.method, rest.pathWithQuery, rest.rawBody)).catch((error) => {
    throw error instanceof AppError ? toTRPCError(error) : error;
  });
  if (!claim.claimed) {
    rest.replay = claim.replay;
    // Ends the chain without running the procedure: the wrapper answers `rest.replay`, not this.
    return { ok: true, data: null, marker: undefined } as unknown as Awaited<ReturnType<typeof next>>;
  }
  const db = ctx.db;
  rest.settle = (answer) => settleIdempotencyKey(db, clientId, key, answer);
  // The claim is extended while the request runs, so a retry never takes over a request still running.
  const heartbeat = holdIdempotencyClaim(db, clientId, key);
  try {
    return await next();
  } finally {
    heartbeat.stop();
  }
});

/** Public REST routes (token exchange): no bearer token, but the same body rules. */
export const publicRestProcedure = baseProcedure.use(restOnly).use(bodyHygiene);

/** A Partner API caller: authenticated, counted, given its turn, its scope and body checked. */
function partnerCaller(scope: PartnerScope) {
  return baseProcedure
    .meta({ scope })
    .use(restOnly)
    .use(authenticate("partner"))
    .use(clientRequestLimit)
    .use(clientFairShare)
    .use(requireScope(scope))
    .use(bodyHygiene);
}

/** A Partner API route requiring `scope` (spec Authentication, decisions §5). */
export function partnerProcedure(scope: PartnerScope) {
  return partnerCaller(scope).use(idempotencyKey);
}

/** An ingestion-gateway route (decisions §8). */
export function ingestionProcedure(scope: IngestionScope) {
  return baseProcedure.meta({ scope }).use(restOnly).use(authenticate("ingestion")).use(requireScope(scope)).use(bodyHygiene);
}

/**
 * A route scoped by `/partners/{owner_slug}/...` (spec Owner slugs and access): unknown slug 404,
 * a caller not granted the owner 403.
 */
export function ownerProcedure(scope: PartnerScope) {
  return ownerCaller(scope).use(idempotencyKey);
}

function ownerCaller(scope: PartnerScope) {
  return partnerCaller(scope).use(async ({ ctx, next, getRawInput, meta, type }) => {
    const raw = (await getRawInput()) as { owner_slug?: unknown } | undefined;
    // Routes taking the slug as a query parameter (reset): a missing one is invalid input, not a 404.
    if (raw?.owner_slug === undefined || raw.owner_slug === "") {
      const style = meta?.inputErrors;
      throw toTRPCError(errors.invalidFields(style?.kind === "fields" ? style.error : GATEWAY_MESSAGES.requestInvalid, { owner_slug: ["is required"] }));
    }
    const slug = typeof raw.owner_slug === "string" ? decodePathParam(raw.owner_slug) : undefined;
    const client = (ctx as unknown as { client: ApiClient }).client;
    const found = slug ? await ownerForClient(ctx.db, slug, client.id) : undefined;
    if (!found) throw toTRPCError(errors.notFound("Property owner not found"));
    if (!found.granted) throw toTRPCError(errors.forbidden("Client is not authorized for this property owner"));
    // A write's transactions enter the owner's merge gate first (owners/merge/gate.ts): during a
    // merge they wait, and a write that named a merged owner acts on its survivor.
    if (type === "mutation") return next({ ctx: { owner: found.owner, db: gatedDb(ctx.db, found.owner) } });
    return next({ ctx: { owner: found.owner } });
  });
}

/**
 * Owner routes whose requests may carry `X-Request-Signature` (decisions §6: prospects, move-outs).
 * Required for clients created with `--require-signature`; refused when present and invalid.
 */
export function signedOwnerProcedure(scope: PartnerScope) {
  return ownerCaller(scope)
    .use(({ ctx, next }) => {
      const rest = ctx.rest;
      const client = (ctx as unknown as { client: ApiClient }).client;
      const header = rest.headers.get("x-request-signature");
      if (header === null && !client.requireSignature) return next();
      const ok =
        header !== null &&
        isValidRequestSignature(header, clientSecretOf(client), {
          method: rest.method,
          pathWithQuery: rest.pathWithQuery,
          rawBody: rest.rawBody,
        });
      if (!ok) throw toTRPCError(errors.invalidSignature());
      return next();
    })
    .use(idempotencyKey);
}

/**
 * The one builder of console procedures (decisions §12): a signed-in staff member whose role holds
 * `permission` (`features/console/permissions.ts`). `ctx.actor` is what `recordAudit` takes: every
 * mutation writes its audit row in its own transaction with it.
 */
export function staffProcedure(permission: Permission) {
  return baseProcedure.meta({ permission }).use(async ({ ctx, next }) => {
    if (!ctx.user) throw toTRPCError(errors.gatewayUnauthorized());
    if (!can(ctx.user.role, permission)) throw toTRPCError(errors.forbidden(`Your role cannot do this (${permission})`));
    const actor: AuditActor = { user: ctx.user, requestId: ctx.requestId };
    return next({ ctx: { user: ctx.user, actor } });
  });
}
