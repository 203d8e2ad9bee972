import fs from "node:fs";
import path from "node:path";
import type postgres from "postgres";
import { getConfig } from "./config";
import { databaseUrl } from "./db/client";
import { connectPostgres } from "./db/url";
import { workerState } from "./jobs/worker";
import { isStopping, onStop } from "./lifecycle";

/**
 * Liveness and readiness (decisions §14, Health; docs/decisions.md "Health and shutdown").
 * `/healthz` does no database work. `/readyz` names each reason this process should get no traffic
 * or work: the database does not answer `select 1` within DATABASE_CHECK_MS, the build's newest
 * migration (or graphile-worker's schema) is not applied, the process is stopping, no worker's
 * heartbeat is fresh (or this process's own worker stopped), or the oldest ready job waits too long.
 * Nothing counts a table: the newest heartbeat (a row per worker process) and the first ready job
 * in graphile-worker's own index order are single-row reads. The database's answers are kept for
 * CACHE_MS, so a probe every second costs at most one round of queries.
 */
export type CheckName = "database" | "migrations" | "worker" | "queue" | "shutdown";
export type Readiness = { status: "ok" | "unavailable"; checks: Record<CheckName, string> };

export const LIVENESS = { status: "ok" } as const;

const CACHE_MS = 1000;
const DATABASE_CHECK_MS = 2000;

type DatabaseChecks = Omit<Record<CheckName, string>, "shutdown">;
let cached: { at: number; checks: Promise<DatabaseChecks> } | undefined;
let probe: postgres.Sql | undefined;

export async function readiness(): Promise<Readiness> {
  if (!cached || Date.now() - cached.at > CACHE_MS) {
    const checks = databaseChecks();
    cached = { at: Date.now(), checks };
    // A check still waiting is not repeated: the next probes within CACHE_MS share its answer.
    checks.finally(() => {
      if (cached?.checks === checks) cached.at = Date.now();
    });
  }
  const checks = { ...(await cached.checks), shutdown: isStopping() ? "shutting down" : "ok" };
  const status = Object.values(checks).every((value) => value === "ok") ? "ok" : "unavailable";
  return { status, checks };
}

/**
 * Whether the database is known to be down, for the door to answer pages 503 while it is
 * (docs/decisions.md "Structure: one door into the gateways"): the last answer of a `select 1` on
 * readiness's own connection, asked again in the background at most once per CACHE_MS while
 * requests come. A caller never waits for the database: the answer is the last one known.
 */
export function databaseKnownDown(): boolean {
  if (!database.checking && Date.now() - database.at > CACHE_MS) {
    database.checking = true;
    // A failed probe is asked once more before pages answer 503: a probe's timer also fires when this
    // process's event loop stalls past it (a just-started server renders its first page), though the
    // database answered, and the next page (a renter's first submission) then got the outage page.
    // A database really down fails both, within seconds (docs/decisions.md "Health and shutdown").
    probeDatabase()
      .then((down) => (down ? probeDatabase() : false))
      .then((down) => {
        database = { down, at: Date.now(), checking: false };
      });
  }
  return database.down;
}
let database = { down: false, at: 0, checking: false };

/** One `select 1` on readiness's own connection: true when it fails or gives no answer within DATABASE_CHECK_MS. */
const probeDatabase = (): Promise<boolean> =>
  probeConnection()
    .then((sql) => withTimeout(sql`select 1`))
    .then(
      () => false,
      () => true,
    );

async function databaseChecks(): Promise<DatabaseChecks> {
  const unknown = "not checked: database unreachable";
  const sql = await probeConnection().catch(() => undefined);
  const database = sql ? await withTimeout(sql`select 1`.then(() => "ok")).catch((error: Error) => `unreachable: ${error.message}`) : "unreachable";
  if (database !== "ok" || !sql) return { database, migrations: unknown, worker: unknown, queue: unknown };
  try {
    const migrations = await migrationsCheck(sql);
    if (migrations !== "ok") return { database, migrations, worker: "not checked: migrations not applied", queue: "not checked: migrations not applied" };
    return { database, migrations, ...(await withTimeout(workCheck(sql))) };
  } catch (error) {
    const reason = `unreachable: ${(error as Error).message}`;
    return { database: reason, migrations: unknown, worker: unknown, queue: unknown };
  }
}

/** Its own connection: a pool busy with partner requests must not make the process look unready. */
async function probeConnection(): Promise<postgres.Sql> {
  if (probe) return probe;
  const url = await withTimeout(databaseUrl());
  probe ??= connectPostgres(url, {
    max: 1,
    connect_timeout: DATABASE_CHECK_MS / 1000,
    idle_timeout: 60,
    onnotice: () => {},
    connection: { application_name: "pis-readiness" },
    // No array types to learn: its statements read scalars. A type query cut by a database going
    // away at the wrong moment is a rejection postgres.js never hands to anyone (an unhandled one).
    fetch_types: false,
    // DB_PREPARE=0 holds for this connection too (docs/operations.md, "PgBouncer").
    ...(getConfig().dbPrepare ? {} : { prepare: false }),
  });
  const opened = probe;
  onStop("database", () => opened.end({ timeout: 1 }));
  return opened;
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_CHECK_MS} ms`)), DATABASE_CHECK_MS);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}

/** The newest migration of this build (drizzle/meta/_journal.json), read once. */
let newestMigration: { tag: string; when: number } | undefined;
function buildMigration(): { tag: string; when: number } {
  if (!newestMigration) {
    const journal = JSON.parse(fs.readFileSync(path.resolve(process.cwd(), "drizzle", "meta", "_journal.json"), "utf8")) as {
      entries: { tag: string; when: number }[];
    };
    newestMigration = journal.entries[journal.entries.length - 1];
  }
  return newestMigration;
}

/** A database ahead of the build is fine (a rolling upgrade runs old and new versions side by side). */
async function migrationsCheck(sql: postgres.Sql): Promise<string> {
  const newest = buildMigration();
  const [row] = await withTimeout(
    sql<{ applied: string | null; worker_schema: boolean }[]>`
      select (select max(created_at)::text from drizzle.__drizzle_migrations) as applied,
             to_regclass('graphile_worker._private_jobs') is not null as worker_schema`,
  ).catch(async (error: Error & { code?: string }) => {
    // 42P01: no migrations table at all.
    if (error.code === "42P01") return [{ applied: null, worker_schema: false }];
    throw error;
  });
  if (row.applied === null || Number(row.applied) < newest.when) return `not applied: ${newest.tag}`;
  if (!row.worker_schema) return "not applied: graphile-worker's schema";
  return "ok";
}

async function workCheck(sql: postgres.Sql): Promise<{ worker: string; queue: string }> {
  const { readyWorkerHeartbeatSeconds: heartbeatBound, readyQueueMaxAgeSeconds: queueBound } = getConfig();
  const [row] = await sql<{ heartbeat_age: number | null; oldest_ready_age: number | null }[]>`
    select extract(epoch from now() - (select max(beat_at) from worker_heartbeats))::float8 as heartbeat_age,
           (select extract(epoch from now() - run_at)::float8 from graphile_worker._private_jobs
             where is_available = true and run_at <= now() order by priority, run_at limit 1) as oldest_ready_age`;
  const own = workerState();
  let worker = "ok";
  if (own.mode !== "off" && !own.running) worker = "worker stopped";
  else if (heartbeatBound > 0 && (row.heartbeat_age === null || row.heartbeat_age > heartbeatBound)) worker = `no worker heartbeat within ${heartbeatBound} s`;
  const queue =
    queueBound > 0 && row.oldest_ready_age !== null && row.oldest_ready_age > queueBound
      ? `oldest ready job waiting ${Math.round(row.oldest_ready_age)} s (bound ${queueBound} s)`
      : "ok";
  return { worker, queue };
}
