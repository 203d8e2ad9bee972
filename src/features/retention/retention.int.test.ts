import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { parseCrontab } from "graphile-worker";
import { afterEach, describe, expect, it } from "vitest";
import { GET } from "@/app/documents/[file]/route";
import { adminRaw } from "../../cli/admin-test-helpers";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { addJob, crontabOf } from "../../server/jobs/define-task";
import { runDueJobs } from "../../test/jobs";
import { countExpired, pruneExpired } from "./prune";
import { retentionPrune } from "./retention__prune";
import { everything, expectedDeleted, expectedKept, type RetentionFixture, remainingIds, retentionFixture } from "./retention-test-helpers";

const DEFAULTS = { deliveries: 90, ingestion: 30, documents: 365, audit: 0, messages: 90 };

/** `npm run admin -- retention run …` as a real process (scripts/admin.ts), with extra variables. */
async function cli(args: string[], env: Record<string, string> = {}) {
  const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/admin.ts", "retention", "run", ...args], {
    env: { ...process.env, ...env },
  });
  const lines = stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]);
}

/** The public link of an archive, as Next serves it. */
async function documentStatus(key: string) {
  const file = `${key}.zip`;
  const response = await GET(new Request(`http://localhost:3999/documents/${file}`), { params: Promise.resolve({ file }) });
  return { status: response.status, body: await response.text() };
}

/** The audit rows the fixture wrote (a CLI run adds its own). */
const withoutRunRecords = async () => {
  const rows = (await (await getDb()).execute(sql`select id::text as id from audit_log where action <> 'retention.run' order by id`)) as unknown as Array<{
    id: string;
  }>;
  return rows.map((row) => row.id).sort();
};

afterEach(() => {
  for (const name of ["RETENTION_DELIVERIES_DAYS", "RETENTION_INGESTION_DAYS", "RETENTION_DOCUMENTS_DAYS", "RETENTION_AUDIT_DAYS", "RETENTION_MESSAGES_DAYS"])
    delete process.env[name];
  resetConfig();
});

async function expectPrunedByDefaults(fixture: RetentionFixture) {
  const left = await remainingIds();
  const kept = expectedKept(fixture);
  expect({ ...left, audit_log: await withoutRunRecords() }).toEqual(kept);
  // An archive superseded for longer than the window answers as an unknown key does; the others still serve.
  const unknown = await documentStatus("A".repeat(32));
  expect(unknown.status).toBe(404);
  expect(await documentStatus(fixture.keys.pruned)).toEqual(unknown);
  for (const key of [fixture.keys.recent, fixture.keys.current, fixture.keys.lone]) expect((await documentStatus(key)).status).toBe(200);
}

describe("retention (decisions §14 Retention)", () => {
  it("the daily task deletes exactly what is past its window and final, through the worker's task list", async () => {
    const fixture = await retentionFixture();
    expect((await documentStatus(fixture.keys.pruned)).status).toBe(200);
    await addJob(await getDb(), retentionPrune, { _cron: { ts: new Date().toISOString(), backfilled: false } } as never);
    await runDueJobs();
    await expectPrunedByDefaults(fixture);
  });

  it("is scheduled daily at 03:30 UTC, making up a missed day", () => {
    const crontab = crontabOf([retentionPrune]);
    expect(crontab).toBe("30 3 * * * retention__prune ?fill=1d");
    expect(parseCrontab(crontab)).toMatchObject([{ task: "retention__prune", options: { backfillPeriod: 86_400_000 } }]);
  });

  it("`retention run --dry-run` counts what a run deletes and deletes nothing; `retention run` deletes it and prints the counts", async () => {
    const fixture = await retentionFixture();
    const dry = await cli(["--dry-run"]);
    expect(dry).toEqual({ dry_run: true, would_delete: expectedDeleted(fixture) });
    expect(await remainingIds()).toEqual(everything(fixture));

    const run = await cli([]);
    expect(run).toEqual({ deleted: expectedDeleted(fixture) });
    await expectPrunedByDefaults(fixture);
    // The run is in the audit log with its windows and counts; a second run finds nothing.
    const [record] = (await (await getDb()).execute(sql`select actor_label, after from audit_log where action = 'retention.run'`)) as unknown as Array<{
      actor_label: string;
      after: unknown;
    }>;
    expect(record).toMatchObject({ actor_label: expect.stringMatching(/^cli:/), after: { windows: DEFAULTS, deleted: expectedDeleted(fixture) } });
    const again = await cli([]);
    expect(Object.values(again.deleted).every((n) => n === 0)).toBe(true);
  }, 120_000);

  it("`retention run` refuses a flag it does not take (exit 2, nothing deleted)", async () => {
    const fixture = await retentionFixture();
    const refused = await adminRaw("retention", "run", "--owner", "acme");
    expect(refused).toMatchObject({ code: 2, stdout: "" });
    expect(refused.err).toContain("--owner");
    expect(await remainingIds()).toEqual(everything(fixture));
  });

  it("a window of 0 keeps its records forever; RETENTION_AUDIT_DAYS prunes the audit log when set", async () => {
    const fixture = await retentionFixture();
    const run = await cli([], {
      RETENTION_DELIVERIES_DAYS: "0",
      RETENTION_INGESTION_DAYS: "0",
      RETENTION_DOCUMENTS_DAYS: "0",
      RETENTION_AUDIT_DAYS: "30",
      RETENTION_MESSAGES_DAYS: "0",
    });
    const before = everything(fixture);
    const left = await remainingIds();
    for (const table of [
      "webhook_deliveries",
      "webhook_attempts",
      "webhook_delivery_replays",
      "webhook_events",
      "ingestion_events",
      "policy_documents",
    ] as const) {
      expect(left[table]).toEqual(before[table]);
    }
    // The 5,000-day-old audit row goes, today's stays (and the run's own record).
    expect(await withoutRunRecords()).toEqual([fixture.audit_log.keep[1]]);
    // Settled renter messages stay, but for sign-in messages past their week: their link died long ago.
    expect(left.renter_messages).toEqual(before.renter_messages.filter((id) => !fixture.signInPastWeek.includes(id)));
    expect(run.deleted).toMatchObject({
      webhook_deliveries: 0,
      webhook_events: 0,
      ingestion_events: 0,
      policy_documents: 0,
      audit_log: 1,
      renter_messages: fixture.signInPastWeek.length,
    });
  }, 60_000);

  it("two runs at once, in batches of 2, delete each row once between them and leave the same rows", async () => {
    const fixture = await retentionFixture();
    const db = await getDb();
    const runs = await Promise.all([pruneExpired(db, DEFAULTS, { batchSize: 2 }), pruneExpired(db, DEFAULTS, { batchSize: 2 })]);
    const total = Object.fromEntries(Object.keys(runs[0]).map((table) => [table, runs.reduce((n, run) => n + run[table as keyof typeof run], 0)]));
    expect(total).toEqual(expectedDeleted(fixture));
    await expectPrunedByDefaults(fixture);
    expect(Object.values(await countExpired(db, DEFAULTS)).every((n) => n === 0)).toBe(true);
  });

  it("renter messages: a settled message goes 90 days after it settled, a sign-in message after a week, a resent copy outlives its original", async () => {
    const fixture = await retentionFixture();
    const db = await getDb();
    expect(await pruneExpired(db, DEFAULTS)).toMatchObject({
      renter_messages: fixture.renter_messages.gone.length,
      account_sign_in_links: 2,
      account_sessions: 2,
    });
    const [copy] = (await db.execute(sql`select resent_from_id from renter_messages where id = ${fixture.resend.copy}`)) as unknown as Array<{
      resent_from_id: number | null;
    }>;
    expect(copy).toEqual({ resent_from_id: null });
    // A window shorter than the sign-in messages' week takes them at the window.
    expect((await remainingIds()).renter_messages).toEqual(expect.arrayContaining(fixture.signInWithinWeek));
    await pruneExpired(db, { ...DEFAULTS, messages: 3 });
    const left = (await remainingIds()).renter_messages;
    for (const id of fixture.signInWithinWeek) expect(left).not.toContain(id);
    // What a 3-day window keeps: messages still queued or being sent, and those settled within it (none here).
    const statuses = (await db.execute(sql`select distinct status from renter_messages`)) as unknown as Array<{ status: string }>;
    expect(statuses.map((row) => row.status).sort()).toEqual(["queued", "sending"]);
  });

  it("finds what it deletes through indexes", async () => {
    const db = await getDb();
    const plan = async (query: string) =>
      db.transaction(async (tx) => {
        // The tables are small here: forbid the sequential scan a planner would rightly pick, and
        // see which index it reaches for instead.
        await tx.execute(sql`set local enable_seqscan = off`);
        const rows = (await tx.execute(sql.raw(`explain ${query}`))) as unknown as Array<Record<string, string>>;
        return rows.map((row) => Object.values(row)[0]).join("\n");
      });
    const cutoff = "now() - interval '90 days'";
    expect(
      await plan(`select id from webhook_deliveries where status in ('delivered', 'failed') and updated_at < ${cutoff} order by updated_at limit 2000`),
    ).toContain("webhook_deliveries_final_idx");
    expect(await plan(`select 1 from webhook_attempts where delivery_id = 'x'`)).toContain("webhook_attempts_delivery_idx");
    expect(await plan(`select id from webhook_events e where created_at < ${cutoff} order by created_at limit 2000`)).toContain("webhook_events_created_idx");
    expect(await plan(`select id from ingestion_events where status in ('applied', 'skipped', 'rejected') and received_at < ${cutoff} limit 2000`)).toContain(
      "ingestion_events_status_idx",
    );
    expect(await plan(`select id from audit_log where at < ${cutoff} order by at limit 2000`)).toContain("audit_log_at_idx");
    const settled = "status in ('sent', 'failed', 'kept')";
    expect(await plan(`select id from renter_messages where ${settled} and updated_at < ${cutoff} order by updated_at limit 2000`)).toContain(
      "renter_messages_settled_idx",
    );
    expect(
      await plan(
        `select id from renter_messages where kind = 'account_sign_in' and ${settled} and updated_at < now() - interval '7 days' order by updated_at limit 2000`,
      ),
    ).toContain("renter_messages_sign_in_settled_idx");
    for (const table of ["account_sign_in_links", "account_sessions"]) {
      expect(await plan(`select id from ${table} where expires_at < now() - interval '1 day' order by expires_at limit 2000`)).toContain(
        `${table}_expires_idx`,
      );
    }
  });
});
