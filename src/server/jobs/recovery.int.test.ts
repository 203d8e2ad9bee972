import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import { type ExternalPostgres, startExternalPostgres } from "../../test/external-postgres";
import { getJson, startProcess, until } from "../../test/processes";

/**
 * docs/decisions.md "Operations: recovery from faults", through real processes: `npm run worker`
 * on an external PostgreSQL that is stopped (fast shutdown, as a restart does) in the middle of work
 * and started again on the same port. The worker process never exits; readiness turns 503 while the
 * database is away and 200 after; a job added after the return runs within 10 s of it and jobs added
 * before are not lost. A worker started while the database is down waits for it, then serves.
 */
const PG_PORT = 6630;
const HEALTH_PORT = 6631;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pis-recovery-"));
fs.chmodSync(dataDir, 0o755);
let pg: ExternalPostgres | undefined;
afterAll(async () => {
  await pg?.stop().catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let readiness: unknown;
const readyz = async (port: number) => {
  const answer = await getJson(`http://127.0.0.1:${port}/readyz`);
  readiness = answer?.body;
  return answer?.status;
};

async function pendingJobs(sql: postgres.Sql, keyPrefix: string): Promise<number> {
  const [{ n }] = await sql<{ n: number }[]>`select count(*)::int as n from graphile_worker.jobs where key like ${`${keyPrefix}%`}`;
  return n;
}

describe("a worker across a PostgreSQL restart (docs/decisions.md: Operations: recovery from faults)", () => {
  it("keeps its process, turns unready while the database is away, and runs old and new jobs within 10 s of its return", async () => {
    pg = await startExternalPostgres(dataDir, PG_PORT);
    const worker = startProcess(["scripts/worker.ts"], { ...process.env, DATABASE_URL: pg.url, WORKER_HEALTH_PORT: String(HEALTH_PORT), LOG_LEVEL: "info" });
    await until(
      async () => (await readyz(HEALTH_PORT)) === 200,
      90_000,
      () => worker.output(),
    );
    // A failure below must not leave this worker taking the next test's jobs.
    onTestFinished(() => {
      if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
    });

    // Work in flight at the stop: a backlog the worker is fetching and completing, and jobs due
    // while the database is away.
    let sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    await sql`select graphile_worker.add_job('system__noop', '{}'::json, job_key => 'backlog-' || n) from generate_series(1, 5000) n`;
    await sql`select graphile_worker.add_job('system__noop', '{}'::json, job_key => 'before-' || n, run_at => now() + interval '2 seconds') from generate_series(1, 20) n`;
    await until(async () => (await pendingJobs(sql, "backlog-")) < 4_500, 30_000);
    await sql.end();
    await pg.stop();
    const down = Date.now();
    await until(
      async () => (await readyz(HEALTH_PORT)) === 503,
      10_000,
      () => worker.output(),
    );
    expect(Date.now() - down).toBeLessThan(5_000);
    await new Promise((resolve) => setTimeout(resolve, 10_000 - (Date.now() - down)));

    await pg.start();
    const back = Date.now();
    sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    // Ahead of the backlog (graphile-worker takes lower priorities first): it measures the worker's
    // return, not how fast it drains thousands of jobs on a busy machine.
    await sql`select graphile_worker.add_job('system__noop', '{}'::json, job_key => 'after-1', priority => -10)`;
    await until(
      async () => (await pendingJobs(sql, "after-")) === 0,
      10_000,
      () => worker.output().slice(-3_000),
    );
    expect(Date.now() - back).toBeLessThan(10_000);
    await until(
      async () => (await readyz(HEALTH_PORT)) === 200,
      10_000,
      () => worker.output().slice(-3_000),
    );
    expect(Date.now() - back).toBeLessThan(10_000);
    // Nothing added before the stop is lost: the backlog and the jobs due while it was away all ran.
    await until(
      async () => (await pendingJobs(sql, "before-")) + (await pendingJobs(sql, "backlog-")) === 0,
      60_000,
      () => worker.output().slice(-3_000),
    );
    await sql.end();
    expect(worker.child.exitCode).toBeNull();
    expect(worker.output()).toMatch(/worker runner (restarted|stopped)|database unreachable/);

    worker.child.kill("SIGTERM");
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  }, 240_000);

  it("started while the database is down, waits for it (alive, not ready), then serves", async () => {
    pg ??= await startExternalPostgres(dataDir, PG_PORT);
    await pg.stop();
    const port = HEALTH_PORT + 1;
    const worker = startProcess(["scripts/worker.ts"], { ...process.env, DATABASE_URL: pg.url, WORKER_HEALTH_PORT: String(port), LOG_LEVEL: "info" });
    await until(
      async () => (await getJson(`http://127.0.0.1:${port}/healthz`))?.status === 200,
      60_000,
      () => worker.output(),
    );
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    expect(worker.child.exitCode).toBeNull();
    expect(await readyz(port)).toBe(503);
    expect(worker.output()).toContain("database unreachable: waiting for it");

    await pg.start();
    const back = Date.now();
    await until(
      async () => (await readyz(port)) === 200,
      20_000,
      () => `${JSON.stringify(readiness)} ${worker.output().slice(-3_000)}`,
    );
    const sql = postgres(pg.url, { max: 1, onnotice: () => {} });
    await sql`select graphile_worker.add_job('system__noop', '{}'::json, job_key => 'late-start-1', priority => -10)`;
    await until(
      async () => (await pendingJobs(sql, "late-start-")) === 0,
      10_000,
      () => worker.output().slice(-3_000),
    );
    expect(Date.now() - back).toBeLessThan(15_000);
    await sql.end();

    worker.child.kill("SIGTERM");
    expect(await worker.exited).toEqual({ code: 0, signal: null });
  }, 180_000);
});
