import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { errors } from "../../server/errors";
import { decryptSecret, encryptSecret } from "../../server/secrets";
import type { KeptAnswer } from "../../server/trpc/context";
import { idempotencyKeys } from "./idempotency-keys.table";
import { IDEMPOTENCY_MESSAGES } from "./messages";

/**
 * Idempotency keys of the Partner API's POSTs (decisions §16; docs/decisions.md, "Partner developer:
 * idempotency keys"). The first request with a key claims it (one insert; the primary key on client
 * and key decides a race between processes), runs, and then keeps its answer or releases the key.
 */

/** How long a key is kept (decisions §16: 24 h). */
export const KEY_HOURS = 24;
/**
 * A claim lasts 2 minutes and is extended every quarter of that while its request runs
 * (`holdIdempotencyClaim`): one that lapses belongs to a process that died, and the same request
 * may take it over. A field, so a test can shorten it instead of waiting minutes.
 */
export const idempotencyClaim = { seconds: 120 };

/**
 * Makes the statement's own transaction commit without waiting for its WAL flush (`set_config` local
 * to it): the claim is flushed by the request's own commit, which follows it in the WAL, and a
 * settle lost in a database crash leaves a claim that lapses (its lock), after which the same request
 * runs again. Saves two flushes a request (docs/decisions.md, "Partner developer: idempotency keys").
 */
const ASYNC = sql`set_config('synchronous_commit', 'off', true) is not null`;

/** 1–255 visible ASCII characters (decisions §16). */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

export function isValidIdempotencyKey(key: string): boolean {
  return VALID_KEY.test(key);
}

/** SHA-256 of the method, the path with its query and the raw body. */
export function fingerprintOf(method: string, pathWithQuery: string, rawBody: string): string {
  return createHash("sha256").update(method).update("\n").update(pathWithQuery).update("\n").update(rawBody).digest("base64url");
}

export type Claim = { claimed: true } | { claimed: false; replay: KeptAnswer };

/**
 * Claims `key` for this request, or answers what the key already holds: the kept answer (same
 * fingerprint), 422 (another fingerprint) or 409 (the first request is still in flight). A key older
 * than 24 h, or a claim of the same request whose process died, is taken over.
 */
export async function claimIdempotencyKey(db: Db, clientId: string, key: string, fingerprint: string, retried = false): Promise<Claim> {
  // One statement; its commit does not wait for the WAL flush (ASYNC below).
  const [taken] = (await db.execute(sql`
    insert into ${idempotencyKeys} (client_id, key, fingerprint, state, locked_until)
    select ${clientId}, ${key}, ${fingerprint}, 'in_flight', now() + make_interval(secs => ${idempotencyClaim.seconds})
    where ${ASYNC}
    on conflict (client_id, key) do update set
      fingerprint = excluded.fingerprint, state = 'in_flight', locked_until = excluded.locked_until,
      response_status = null, response_body = null, response_headers = null, created_at = now()
    where ${idempotencyKeys.createdAt} < now() - make_interval(hours => ${KEY_HOURS})
      or (${idempotencyKeys.state} = 'in_flight' and ${idempotencyKeys.lockedUntil} < now() and ${idempotencyKeys.fingerprint} = excluded.fingerprint)
    returning 1 as taken`)) as unknown as Array<{ taken: number }>;
  if (taken) return { claimed: true };
  const [held] = await db
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.clientId, clientId), eq(idempotencyKeys.key, key)));
  // Released between the two statements (its request failed): that request changed nothing, and this one may retry.
  if (!held) throw errors.conflict(IDEMPOTENCY_MESSAGES.inFlight);
  if (held.fingerprint !== fingerprint) throw errors.idempotencyKeyReused(IDEMPOTENCY_MESSAGES.reused);
  if (held.state !== "done" || held.responseStatus === null) throw errors.conflict(IDEMPOTENCY_MESSAGES.inFlight);
  const body = openKeptBody(held.responseBody);
  if (body === undefined) {
    // Sealed under a master key this process no longer holds (a rotation finished within the key's
    // 24 h): the answer cannot be repeated, so the key is released and this request runs.
    if (retried) throw errors.conflict(IDEMPOTENCY_MESSAGES.inFlight);
    await db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.clientId, clientId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.fingerprint, fingerprint)));
    return claimIdempotencyKey(db, clientId, key, fingerprint, true);
  }
  return { claimed: false, replay: { status: held.responseStatus, body, headers: held.responseHeaders ?? {} } };
}

/**
 * Keeps a claim alive while its request runs (docs/decisions.md, "Partner developer: idempotency
 * keys"): a request slower than the claim (a long batch, a wait on a lock) is not taken over by a
 * retry, which would run it a second time. A failed extension is let go: the claim then lapses as
 * a dead process's would.
 */
export function holdIdempotencyClaim(db: Db, clientId: string, key: string): { stop: () => void } {
  const seconds = idempotencyClaim.seconds;
  const timer = setInterval(
    () => {
      db.update(idempotencyKeys)
        .set({ lockedUntil: sql`now() + make_interval(secs => ${seconds})` })
        .where(and(eq(idempotencyKeys.clientId, clientId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.state, "in_flight"), ASYNC))
        .then(
          () => {},
          () => {},
        );
    },
    (seconds * 1000) / 4,
  );
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * A kept answer is sealed at rest (`encryptSecret`): it may carry a credential, such as a portal
 * session's signed link, and renters' details (docs/decisions.md, "Partner developer: idempotency keys").
 */
function sealKeptBody(body: string | null): string | null {
  return body === null ? null : encryptSecret(body);
}

function openKeptBody(sealed: string | null): string | null | undefined {
  if (sealed === null) return null;
  try {
    return decryptSecret(sealed);
  } catch {
    return undefined;
  }
}

/**
 * Settles a claimed key with the request's final answer: a success (below 400) is kept; any other
 * answer releases the key (a failed request changed nothing, and a 5xx may succeed on retry).
 */
export async function settleIdempotencyKey(db: Db, clientId: string, key: string, answer: KeptAnswer): Promise<void> {
  const where = and(eq(idempotencyKeys.clientId, clientId), eq(idempotencyKeys.key, key), ASYNC);
  if (answer.status >= 400) {
    await db.delete(idempotencyKeys).where(where);
    return;
  }
  await db
    .update(idempotencyKeys)
    .set({ state: "done", responseStatus: answer.status, responseBody: sealKeptBody(answer.body), responseHeaders: answer.headers })
    .where(where);
}

/** Deletes keys older than 24 h, at most `limit` a statement; returns how many. */
export async function pruneIdempotencyKeys(db: Db, limit = 5000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const [row] = (await db.execute(sql`
      with gone as (
        delete from ${idempotencyKeys} where ctid in (
          select ctid from ${idempotencyKeys}
          where ${idempotencyKeys.createdAt} < now() - make_interval(hours => ${KEY_HOURS})
          limit ${limit})
        returning 1)
      select count(*)::int as n from gone`)) as unknown as Array<{ n: number }>;
    const n = Number(row?.n ?? 0);
    deleted += n;
    if (n < limit) return deleted;
  }
}
