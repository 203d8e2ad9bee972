import { sql } from "drizzle-orm";
import { getDb } from "../../server/db/client";
import { newClient, newOwner, unique } from "../../test/factories";
import { RENTER_MESSAGE_STATUSES } from "../messages/renter-messages.table";
import { buildPolicyArchive } from "../policies/documents/archive";
import { sampleDeclarations } from "../policies/documents/document-test-helpers";
import { storePolicyArchive } from "../policies/documents/storage";
import { insertBarePolicy } from "../policies/policy-test-helpers";
import { DELIVERY_STATUSES } from "../webhooks/webhooks.table";

type Rows = { keep: string[]; gone: string[] };
/** Rows on both sides of every window, by table, each labelled with what the default windows do to it. */
export type RetentionFixture = {
  webhook_deliveries: Rows;
  webhook_attempts: Rows;
  webhook_delivery_replays: Rows;
  webhook_events: Rows;
  ingestion_events: Rows;
  policy_documents: Rows;
  audit_log: Rows;
  console_sessions: Rows;
  console_sign_in_failures: Rows;
  portal_sessions: Rows;
  renter_messages: Rows;
  account_sign_in_links: Rows;
  account_sessions: Rows;
  /** Renter messages that only a window shorter than the sign-in messages' week deletes: sign-in messages settled 6 days ago. */
  signInWithinWeek: string[];
  /** Sign-in messages settled more than a week ago: they go whatever `RETENTION_MESSAGES_DAYS` says. */
  signInPastWeek: string[];
  /** A resent copy (kept) of an original the defaults prune. */
  resend: { original: string; copy: string };
  /** Document keys: superseded for longer than the window, superseded recently, and current. */
  keys: { pruned: string; recent: string; current: string; lone: string };
};

const TABLES = [
  "webhook_attempts",
  "webhook_delivery_replays",
  "webhook_deliveries",
  "webhook_events",
  "ingestion_events",
  "policy_documents",
  "audit_log",
  "console_sessions",
  "console_sign_in_failures",
  "portal_sessions",
  "renter_messages",
  "account_sign_in_links",
  "account_sessions",
] as const;

const label = (rows: Rows, id: string | number, gone: boolean) => (gone ? rows.gone : rows.keep).push(String(id));

const ago = (days: number) => sql`now() - make_interval(secs => ${Math.round(days * 86_400)}::int)`;

/** The ids left in each table the fixture fills (as text), sorted. */
export async function remainingIds(): Promise<Record<(typeof TABLES)[number], string[]>> {
  const db = await getDb();
  const out = {} as Record<(typeof TABLES)[number], string[]>;
  for (const table of TABLES) {
    const key = table === "webhook_delivery_replays" ? "delivery_id" : "id";
    const rows = (await db.execute(sql`select ${sql.identifier(key)}::text as id from ${sql.identifier(table)}`)) as unknown as Array<{ id: string }>;
    out[table] = rows.map((row) => row.id).sort();
  }
  return out;
}

/**
 * Empties the tables retention prunes, then fills them with rows on both sides of the default
 * windows (deliveries 90 days, ingestion 30, documents 365, audit forever): deliveries in every
 * status, old and recent, with attempts and replay marks; events with all, some or none of their
 * deliveries prunable; ingestion events in every status; a policy's archives superseded long ago,
 * recently, and its current one; sessions and sign-in failures past and within their lifetime;
 * renter messages in every status an hour either side of their windows (90 days, sign-in messages 7),
 * and the account's sign-in links and sessions an hour either side of a day past their expiry.
 */
export async function retentionFixture(): Promise<RetentionFixture> {
  const db = await getDb();
  await db.execute(sql.raw(`truncate ${TABLES.join(", ")}`));
  const fixture = Object.fromEntries(TABLES.map((table) => [table, { keep: [], gone: [] }])) as unknown as RetentionFixture;

  const client = await newClient();
  const owner = await newOwner(client);
  const endpoint = unique("we_ret");
  await db.execute(sql`insert into webhook_endpoints (id, owner_id, client_id, name, destination_url, events)
    values (${endpoint}, ${owner.id}, ${client.clientId}, 'retention', 'https://127.0.0.1:1/hook', array['prospect.ready'])`);
  const event = async (createdDaysAgo: number, gone: boolean) => {
    const [row] = (await db.execute(sql`insert into webhook_events (owner_id, event, body, created_at)
      values (${owner.id}, 'prospect.ready', '{"event":"prospect.ready"}', ${ago(createdDaysAgo)}) returning id`)) as unknown as Array<{ id: number }>;
    label(fixture.webhook_events, row.id, gone);
    return row.id;
  };
  const delivery = async (eventId: number, status: string, updatedDaysAgo: number, gone: boolean) => {
    const id = unique("wd_ret");
    await db.execute(sql`insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event, status, attempt_number, created_at, updated_at)
      values (${id}, ${eventId}, ${endpoint}, ${owner.id}, 'prospect.ready', ${status}, 2, ${ago(updatedDaysAgo + 1)}, ${ago(updatedDaysAgo)})`);
    label(fixture.webhook_deliveries, id, gone);
    for (const number of [1, 2]) {
      const [attempt] = (await db.execute(sql`insert into webhook_attempts (delivery_id, number, started_at, duration_ms, response_status, request_headers)
        values (${id}, ${number}, ${ago(updatedDaysAgo)}, 12, 500, '{}') returning id`)) as unknown as Array<{ id: number }>;
      label(fixture.webhook_attempts, attempt.id, gone);
    }
    if (status === "delivered") {
      await db.execute(sql`insert into webhook_delivery_replays (delivery_id, replayed_at) values (${id}, ${ago(updatedDaysAgo)})`);
      label(fixture.webhook_delivery_replays, id, gone);
    }
  };
  // Every status, just past and just within the window; an event of its own each.
  for (const status of DELIVERY_STATUSES) {
    const final = status === "delivered" || status === "failed";
    await delivery(await event(91.5, final), status, 91, final);
    await delivery(await event(89.5, false), status, 89, false);
  }
  // An old event with a prunable and a pending delivery stays; with two prunable ones it goes.
  const mixed = await event(120, false);
  await delivery(mixed, "delivered", 119, true);
  await delivery(mixed, "retrying", 119, false);
  const both = await event(120, true);
  await delivery(both, "delivered", 119, true);
  await delivery(both, "failed", 100, true);
  // Created long ago, retried by an operator last week and failed again: its last change counts.
  await delivery(await event(200, false), "failed", 7, false);
  // Events no endpoint heard: old ones go, recent ones stay.
  await event(91, true);
  await event(89, false);

  // Ingestion events: processed ones past 30 days go; pending ones never.
  for (const status of ["pending", "applied", "skipped", "rejected"]) {
    for (const [days, old] of [
      [31, true],
      [29, false],
    ] as const) {
      const [row] = (await db.execute(sql`insert into ingestion_events (client_id, body, status, received_at, processed_at)
        values ('ic_retention', '{}', ${status}, ${ago(days)}, ${status === "pending" ? null : ago(days)}) returning id`)) as unknown as Array<{ id: number }>;
      label(fixture.ingestion_events, row.id, old && status !== "pending");
    }
  }

  // Archives: superseded 400 days ago (goes), superseded 100 days ago (stays), the current one
  // (stays, though created 100 days ago), and a policy's only archive of 1,000 days ago (stays).
  const archive = await buildPolicyArchive(sampleDeclarations());
  const store = async (policyId: number, createdDaysAgo: number, gone: boolean) => {
    const stored = await db.transaction((tx) => storePolicyArchive(tx, { policyId, archive }));
    const [row] = (await db.execute(
      sql`update policy_documents set created_at = ${ago(createdDaysAgo)} where key = ${stored.key} returning id`,
    )) as unknown as Array<{ id: number }>;
    label(fixture.policy_documents, row.id, gone);
    return stored.key;
  };
  const policy = await insertBarePolicy();
  const pruned = await store(policy, 800, true);
  const recent = await store(policy, 400, false);
  const current = await store(policy, 100, false);
  const lone = await store(await insertBarePolicy(), 1_000, false);
  fixture.keys = { pruned, recent, current, lone };

  // The audit log: kept forever by default.
  for (const days of [5_000, 0]) {
    const [row] = (await db.execute(sql`insert into audit_log (at, actor_label, action, subject_type, subject_id)
      values (${ago(days)}, 'cli:test', 'test.action', 'test', 'x') returning id`)) as unknown as Array<{ id: number }>;
    label(fixture.audit_log, row.id, false);
  }

  // Console sessions past their 12 h and within them; failed sign-ins past their 15 minutes and within.
  const [user] = (await db.execute(sql`insert into users (email, password_hash, role)
    values (${`${unique("ret")}@example.com`}, 'x', 'operator') returning id`)) as unknown as Array<{ id: number }>;
  for (const [hours, gone] of [
    [13, true],
    [11, false],
  ] as const) {
    const id = unique("sid");
    await db.execute(sql`insert into console_sessions (id, user_id, started_at) values (${id}, ${user.id}, ${ago(hours / 24)})`);
    label(fixture.console_sessions, id, gone);
  }
  for (const [minutes, gone] of [
    [20, true],
    [10, false],
  ] as const) {
    const [row] = (await db.execute(sql`insert into console_sign_in_failures (email, client_address, at)
      values ('someone@example.com', '10.0.0.1', ${ago(minutes / 1_440)}) returning id`)) as unknown as Array<{ id: number }>;
    label(fixture.console_sign_in_failures, row.id, gone);
  }
  for (const [hoursAgo, gone] of [
    [25, true],
    [23, false],
  ] as const) {
    const id = unique("ps_ret");
    await db.execute(sql`insert into portal_sessions (id, client_id, owner_id, secret_version, expires_at)
      values (${id}, ${client.clientId}, ${owner.id}, 1, ${ago(hoursAgo / 24)})`);
    label(fixture.portal_sessions, id, gone);
  }
  await renterRecords(fixture, owner.id);
  return fixture;
}

const HOUR = 1 / 24;

/** The renter's messages and account records (docs/decisions.md, "Retention: renter messages and the account"). */
async function renterRecords(fixture: RetentionFixture, ownerId: number) {
  const db = await getDb();
  const message = async (kind: string, status: string, updatedDaysAgo: number, resentFromId: number | null = null) => {
    const [row] = (await db.execute(sql`insert into renter_messages
        (kind, to_address, subject, data, status, give_up_at, message_id, owner_id, policy_number, resent_from_id, created_at, updated_at)
      values (${kind}, 'renter@example.com', 'A subject', '{"policyNumber":"P-1"}', ${status}, ${ago(updatedDaysAgo - 1)},
        ${`<${unique("m")}@test>`}, ${ownerId}, 'P-1', ${resentFromId}, ${ago(updatedDaysAgo + 0.5)}, ${ago(updatedDaysAgo)})
      returning id`)) as unknown as Array<{ id: number }>;
    return row.id;
  };
  const settled = (status: string) => status === "sent" || status === "failed" || status === "kept";
  fixture.signInPastWeek = [];
  // Every status an hour either side of the 90 days; a message still queued or being sent never goes.
  for (const status of RENTER_MESSAGE_STATUSES) {
    label(fixture.renter_messages, await message("payment_receipt", status, 90 + HOUR), settled(status));
    label(fixture.renter_messages, await message("payment_receipt", status, 90 - HOUR), false);
    // Sign-in messages: a week, whatever the status they settled in.
    const pastWeek = await message("account_sign_in", status, 7 + HOUR);
    label(fixture.renter_messages, pastWeek, settled(status));
    if (settled(status)) fixture.signInPastWeek.push(String(pastWeek));
    label(fixture.renter_messages, await message("account_sign_in", status, 7 - HOUR), false);
  }
  fixture.signInWithinWeek = [];
  for (const status of ["sent", "failed"]) {
    const id = String(await message("account_sign_in", status, 6));
    fixture.renter_messages.keep.push(id);
    fixture.signInWithinWeek.push(id);
  }
  // A message failed 100 days ago and resent since: the original goes, its copy stays.
  const original = await message("payment_failed", "failed", 100);
  label(fixture.renter_messages, original, true);
  const copy = await message("payment_failed", "sent", 10, original);
  label(fixture.renter_messages, copy, false);
  fixture.resend = { original: String(original), copy: String(copy) };

  // Sign-in links: a day past their expiry, used or not, go; within the day, or still valid, they stay.
  for (const [expiredHoursAgo, used, gone] of [
    [25, true, true],
    [25, false, true],
    [23, true, false],
    [23, false, false],
    [-0.2, false, false],
  ] as const) {
    const [row] = (await db.execute(sql`insert into account_sign_in_links (token_hash, email, expires_at, used_at, created_at)
      values (${unique("h")}, 'renter@example.com', ${ago(expiredHoursAgo * HOUR)}, ${used ? ago(expiredHoursAgo * HOUR + 0.1 * HOUR) : null},
        ${ago(expiredHoursAgo * HOUR + 0.25 * HOUR)})
      returning id`)) as unknown as Array<{ id: number }>;
    label(fixture.account_sign_in_links, row.id, gone);
  }
  // Sessions: a day past their 12 h go; a revoked one goes with its expiry, not before.
  for (const [expiredHoursAgo, revokedHoursAgo, gone] of [
    [25, null, true],
    [25, 30, true],
    [23, 30, false],
    [23, null, false],
    [-5, 1, false],
    [-11, null, false],
  ] as const) {
    const [row] = (await db.execute(sql`insert into account_sessions (token_hash, email, started_at, expires_at, revoked_at)
      values (${unique("h")}, 'renter@example.com', ${ago((expiredHoursAgo + 12) * HOUR)}, ${ago(expiredHoursAgo * HOUR)},
        ${revokedHoursAgo === null ? null : ago(revokedHoursAgo * HOUR)})
      returning id`)) as unknown as Array<{ id: number }>;
    label(fixture.account_sessions, row.id, gone);
  }
}

/** The number of rows the default windows delete, by table. */
export function expectedDeleted(fixture: RetentionFixture): Record<(typeof TABLES)[number], number> {
  return Object.fromEntries(TABLES.map((table) => [table, fixture[table].gone.length])) as Record<(typeof TABLES)[number], number>;
}

/** What each table holds after a prune by the default windows. */
export function expectedKept(fixture: RetentionFixture): Record<(typeof TABLES)[number], string[]> {
  return Object.fromEntries(TABLES.map((table) => [table, [...fixture[table].keep].sort()])) as Record<(typeof TABLES)[number], string[]>;
}

/** What each table holds before any prune. */
export function everything(fixture: RetentionFixture): Record<(typeof TABLES)[number], string[]> {
  return Object.fromEntries(TABLES.map((table) => [table, [...fixture[table].keep, ...fixture[table].gone].sort()])) as Record<
    (typeof TABLES)[number],
    string[]
  >;
}
