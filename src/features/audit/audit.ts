import { and, desc, eq, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../server/db/client";
import type { ConsoleUser } from "../../server/trpc/context";
import { auditLog } from "./audit-log.table";

/** Who did it: a signed-in staff member, or the operator CLI. */
export type AuditActor = { user: ConsoleUser; requestId?: string } | { cli: string };
/**
 * A Partner API client acting on its own data (its client id; a partner's recovery, decisions §16
 * Recovery), through its partner portal session when it acted from the portal (docs/decisions.md,
 * "Second security review"): labelled `client:<id>` or `client:<id> portal:<ps_…>`.
 */
export type ClientActor = { client: string; portalSession?: string };
/** Someone not signed in, by client address (a refused console sign-in, decisions §15). */
export type AnonymousActor = { anonymous: string };
/** A renter signed in to their account, by email (Pay now, Update card: decisions §19). */
export type RenterActor = { renter: string };
/** The service itself, by the task that acted (an automatic suspension: docs/decisions.md, "Partner developer: endpoint health"). */
export type SystemActor = { system: string };

export type AuditRecord = {
  action: string;
  subject: { type: string; id: string | number };
  ownerId?: number | null;
  /** The state before and after, as the console shows it; secrets must never be put here. */
  before?: unknown;
  after?: unknown;
};

/** Writes one audit row in the caller's transaction (decisions §12: who, when, what, before, after). */
export async function recordAudit(tx: Tx, actor: AuditActor | ClientActor | AnonymousActor | SystemActor | RenterActor, record: AuditRecord): Promise<void> {
  const who =
    "user" in actor
      ? { actorUserId: actor.user.id, actorLabel: actor.user.email, actorRole: actor.user.role, requestId: actor.requestId ?? null }
      : "cli" in actor
        ? { actorUserId: null, actorLabel: `cli:${actor.cli}`, actorRole: null, requestId: null }
        : "system" in actor
          ? { actorUserId: null, actorLabel: `system:${actor.system}`, actorRole: null, requestId: null }
          : "client" in actor
            ? {
                actorUserId: null,
                actorLabel: actor.portalSession ? `client:${actor.client} portal:${actor.portalSession}` : `client:${actor.client}`,
                actorRole: null,
                requestId: null,
              }
            : "renter" in actor
              ? { actorUserId: null, actorLabel: `renter:${actor.renter}`, actorRole: null, requestId: null }
              : { actorUserId: null, actorLabel: `anonymous:${actor.anonymous}`, actorRole: null, requestId: null };
  await tx.insert(auditLog).values({
    ...who,
    action: record.action,
    subjectType: record.subject.type,
    subjectId: String(record.subject.id),
    ownerId: record.ownerId ?? null,
    before: record.before === undefined ? null : record.before,
    after: record.after === undefined ? null : record.after,
  });
}

export const auditSearchInput = z.object({
  action: z.string().trim().max(100).optional(),
  subjectType: z.string().trim().max(100).optional(),
  subjectId: z.string().trim().max(200).optional(),
  ownerId: z.number().int().positive().optional(),
  before: z.number().int().positive().optional(),
  /** The same as `before`, under the name tRPC's infinite queries page with. */
  cursor: z.number().int().positive().nullish(),
  limit: z.number().int().min(1).max(200).default(50),
});

export const auditRow = z.object({
  id: z.number().int(),
  at: z.string(),
  actor: z.string(),
  actor_role: z.string().nullable(),
  action: z.string(),
  subject_type: z.string(),
  subject_id: z.string(),
  owner_id: z.number().int().nullable(),
  before: z.unknown(),
  after: z.unknown(),
});

/** The log, newest first, filtered by action, subject or owner; keyset paging by id. */
export async function searchAudit(db: Tx, input: z.input<typeof auditSearchInput>): Promise<z.infer<typeof auditRow>[]> {
  const filters = auditSearchInput.parse(input);
  const conditions: SQL[] = [];
  if (filters.action) conditions.push(eq(auditLog.action, filters.action));
  if (filters.subjectType) conditions.push(eq(auditLog.subjectType, filters.subjectType));
  if (filters.subjectId) conditions.push(eq(auditLog.subjectId, filters.subjectId));
  if (filters.ownerId) conditions.push(eq(auditLog.ownerId, filters.ownerId));
  const before = filters.before ?? filters.cursor;
  if (before) conditions.push(lt(auditLog.id, before));
  const rows = await db
    .select()
    .from(auditLog)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.id))
    .limit(filters.limit);
  return rows.map((row) => ({
    id: row.id,
    at: row.at.toISOString(),
    actor: row.actorLabel,
    actor_role: row.actorRole,
    action: row.action,
    subject_type: row.subjectType,
    subject_id: row.subjectId,
    owner_id: row.ownerId,
    before: row.before,
    after: row.after,
  }));
}
