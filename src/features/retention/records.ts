import { sql } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { auditLog } from "../audit/audit-log.table";
import { SESSION_LIFETIME_HOURS } from "../console/sessions";
import { consoleSessions, consoleSignInFailures } from "../console/sessions.table";
import { SIGN_IN_WINDOW_MINUTES } from "../console/sign-in";
import { ingestionEvents } from "../ingestion/ingestion-events.table";
import { policyDocuments } from "../policies/documents/policy-documents.table";
import { portalSessions } from "../portal/portal-sessions.table";
import { type BatchOptions, countOf, cutoff, deleteInBatches, type Kind, since } from "./batches";
import { accountSessionsPast, messageKinds, signInLinks } from "./renter";

/*
 * The other kinds of record retention prunes (decisions §14 Retention; docs/decisions.md,
 * Retention), each a candidate query over an index: what goes, and never what stays.
 */

/** Processed ingestion events (applied, skipped, rejected; never pending) received before the window, walked by id. */
const ingestion = (days: number): Kind => ({
  table: ingestionEvents,
  candidates: (after) => sql`
    select id, id as cursor from ${ingestionEvents}
    where status in ('applied', 'skipped', 'rejected') and received_at < ${cutoff(days)} ${after === undefined ? sql`` : sql`and id > ${after}::bigint`}`,
});

/**
 * Document archives superseded by a newer archive of the same policy for longer than the window
 * (decisions §11 Documents: each link keeps its content until then). A policy's newest archive,
 * the one its latest `policy.documents_updated` named, is never a candidate; a pruned key answers
 * 404 as an unknown key does.
 */
const documents = (days: number): Kind => ({
  table: policyDocuments,
  candidates: (after) => sql`
    select d.id, d.id as cursor from ${policyDocuments} d
    where exists (select 1 from ${policyDocuments} n where n.policy_id = d.policy_id and n.id > d.id and n.created_at < ${cutoff(days)})
      ${after === undefined ? sql`` : sql`and d.id > ${after}::int`}`,
});

/** The audit log, kept forever by default (`RETENTION_AUDIT_DAYS` 0), walked by `audit_log_at_idx`. */
const audit = (days: number): Kind => ({
  table: auditLog,
  candidates: (after) => sql`select id, at as cursor from ${auditLog} where at < ${cutoff(days)} ${since(sql`at`, after)}`,
});

/** Console sessions past their 12 h lifetime (decisions §15): refused already, of use to no one. */
const sessions: Kind = {
  table: consoleSessions,
  candidates: (after) => sql`
    select id, started_at as cursor from ${consoleSessions}
    where started_at < now() - make_interval(hours => ${SESSION_LIFETIME_HOURS}::int) ${since(sql`started_at`, after)}`,
};

/** Failed sign-ins past their 15-minute window (decisions §15), should no sign-in come to tidy them. */
const signInFailures: Kind = {
  table: consoleSignInFailures,
  candidates: (after) => sql`
    select id, at as cursor from ${consoleSignInFailures}
    where at < now() - make_interval(mins => ${SIGN_IN_WINDOW_MINUTES}::int) ${since(sql`at`, after)}`,
};

/**
 * Partner portal sessions a day past their expiry (docs/decisions.md, "Second security review"): they
 * open nothing any more; the audit rows that name them keep their id.
 */
const portal: Kind = {
  table: portalSessions,
  candidates: (after) => sql`
    select id, expires_at as cursor from ${portalSessions}
    where expires_at < now() - interval '1 day' ${since(sql`expires_at`, after)}`,
};

export type RecordWindows = { ingestion: number; documents: number; audit: number; messages: number };
export type RecordCounts = {
  ingestion_events: number;
  policy_documents: number;
  audit_log: number;
  console_sessions: number;
  console_sign_in_failures: number;
  portal_sessions: number;
  renter_messages: number;
  account_sign_in_links: number;
  account_sessions: number;
};

/** The kinds to prune, by the table printed for them (one table may have more than one rule); a window of 0 keeps its kind forever. */
function kindsOf(windows: RecordWindows): Record<keyof RecordCounts, Kind[]> {
  const within = (days: number, kind: (days: number) => Kind) => (days > 0 ? [kind(days)] : []);
  return {
    ingestion_events: within(windows.ingestion, ingestion),
    policy_documents: within(windows.documents, documents),
    audit_log: within(windows.audit, audit),
    console_sessions: [sessions],
    console_sign_in_failures: [signInFailures],
    portal_sessions: [portal],
    renter_messages: messageKinds(windows.messages),
    account_sign_in_links: [signInLinks],
    account_sessions: [accountSessionsPast],
  };
}

export async function pruneRecords(db: Db, windows: RecordWindows, options: BatchOptions): Promise<RecordCounts> {
  const counts = {} as RecordCounts;
  for (const [name, kinds] of Object.entries(kindsOf(windows)) as Array<[keyof RecordCounts, Kind[]]>) {
    counts[name] = 0;
    for (const kind of kinds) counts[name] += await deleteInBatches(db, kind.table, kind.candidates, options);
  }
  return counts;
}

/** A dry run's counts; a row two rules of its table select is counted once. */
export async function countPrunableRecords(db: Db, windows: RecordWindows): Promise<RecordCounts> {
  const counts = {} as RecordCounts;
  for (const [name, kinds] of Object.entries(kindsOf(windows)) as Array<[keyof RecordCounts, Kind[]]>) {
    counts[name] =
      kinds.length === 0
        ? 0
        : await countOf(
            db,
            sql.join(
              kinds.map((kind) => sql`select id from (${kind.candidates(undefined)}) k`),
              sql` union `,
            ),
          );
  }
  return counts;
}
