import fs from "node:fs";
import path from "node:path";
import { sql as raw } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, getJson, startDatabase, startProcess, until } from "../test/processes";
import { databaseUrl, getDb } from "./db/client";

/**
 * decisions §14, Health, through real processes: `npm run worker` with WORKER_HEALTH_PORT answers
 * /healthz (no database work) and /readyz (each check named) on the real PostgreSQL it was given,
 * 503 with the reason when the newest migration is not applied and when the database is stopped.
 */
const PORT = 5011;
const health = `http://127.0.0.1:${PORT}`;
/** The reasons are told only to `METRICS_TOKEN` (docs/decisions.md, Second security review). */
const METRICS_TOKEN = "health-test-metrics-token";
const trusted = { authorization: `Bearer ${METRICS_TOKEN}` };
const readyz = (base: string) => getJson(`${base}/readyz`, trusted);
let database: Awaited<ReturnType<typeof startDatabase>> | undefined;
afterAll(async () => {
  await database?.stop().catch(() => {});
});

/** The build's newest migration, as the journal names it. */
function newestMigrationTag(): string {
  const journal = JSON.parse(fs.readFileSync(path.join("drizzle", "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
  return journal.entries[journal.entries.length - 1]?.tag ?? "";
}

describe("worker readiness (decisions §14, Health)", () => {
  it("answers 200 when ready, 503 naming the migration not applied, 503 naming the database when it stops", async () => {
    database = await startDatabase();
    const worker = startProcess(["scripts/worker.ts"], {
      ...process.env,
      DATABASE_URL: database.url,
      WORKER_HEALTH_PORT: String(PORT),
      METRICS_TOKEN,
      LOG_LEVEL: "info",
    });
    await until(
      async () => (await readyz(health))?.status === 200,
      90_000,
      () => worker.output(),
    );
    expect(await getJson(`${health}/healthz`)).toEqual({ status: 200, body: { status: "ok" } });
    expect(await readyz(health)).toEqual({
      status: 200,
      body: { status: "ok", checks: { database: "ok", migrations: "ok", worker: "ok", queue: "ok", shutdown: "ok" } },
    });

    // The build's newest migration no longer recorded as applied.
    const sql = postgres(database.url, { max: 1, onnotice: () => {} });
    const [newest] = await sql<{ id: number; hash: string; created_at: string }[]>`
      delete from drizzle.__drizzle_migrations where id = (select max(id) from drizzle.__drizzle_migrations) returning id, hash, created_at`;
    await until(async () => (await readyz(health))?.status === 503, 5_000);
    const missing = await readyz(health);
    expect(missing?.body).toMatchObject({
      status: "unavailable",
      checks: { database: "ok", migrations: `not applied: ${newestMigrationTag()}`, shutdown: "ok" },
    });
    await sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest.id}, ${newest.hash}, ${newest.created_at})`;
    await until(async () => (await readyz(health))?.status === 200, 5_000);
    await sql.end();

    // The database stops: readiness says so within its check's bound (no hang); liveness still answers.
    await database.stop();
    const began = Date.now();
    await until(async () => (await readyz(health))?.status === 503, 10_000);
    expect(Date.now() - began).toBeLessThan(5_000);
    const down = await readyz(health);
    expect(down?.body).toMatchObject({ status: "unavailable", checks: { database: expect.stringMatching(/^unreachable/), shutdown: "ok" } });
    // Anyone else learns only that it is not ready; the reason is in the log.
    expect(await getJson(`${health}/readyz`)).toEqual({ status: 503, body: { status: "unavailable" } });
    expect(worker.output()).toMatch(/"msg":"not ready"/);
    expect(worker.output()).toMatch(/"database":"unreachable/);
    expect(await getJson(`${health}/healthz`)).toEqual({ status: 200, body: { status: "ok" } });
    worker.child.kill("SIGKILL");
  }, 180_000);
});

describe("web readiness with WORKER=off (decisions §14, Health)", () => {
  beforeAll(ensureBuilt, BUILD_TIMEOUT_MS);
  it("answers 503 while no worker's heartbeat is fresh and while a ready job waits too long, 200 once a worker runs", async () => {
    const port = PORT + 1;
    const web = startProcess(["scripts/serve.ts"], {
      ...process.env,
      DATABASE_URL: await databaseUrl(),
      PORT: String(port),
      WORKER: "off",
      READY_QUEUE_MAX_AGE_SECONDS: "60",
      METRICS_TOKEN,
      LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
    });
    await until(
      async () => (await getJson(`http://127.0.0.1:${port}/healthz`))?.status === 200,
      90_000,
      () => web.output(),
    );
    await (await getDb()).execute(raw`select graphile_worker.add_job('system__noop', '{}'::json, run_at => now() - interval '1 hour')`);
    await until(async () => ((await readyz(`http://127.0.0.1:${port}`))?.body.checks as Record<string, string>)?.queue !== "ok", 5_000);
    expect(await readyz(`http://127.0.0.1:${port}`)).toMatchObject({
      status: 503,
      body: {
        status: "unavailable",
        checks: {
          database: "ok",
          migrations: "ok",
          worker: "no worker heartbeat within 30 s",
          queue: expect.stringMatching(/^oldest ready job waiting 3\d{3} s \(bound 60 s\)$/),
          shutdown: "ok",
        },
      },
    });

    const worker = startProcess(["scripts/worker.ts"], { ...process.env, DATABASE_URL: await databaseUrl(), LOG_LEVEL: "info" });
    await until(
      async () => (await readyz(`http://127.0.0.1:${port}`))?.status === 200,
      60_000,
      () => worker.output(),
    );
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    // Its heartbeat went with it.
    await until(async () => (await readyz(`http://127.0.0.1:${port}`))?.status === 503, 5_000);
    web.child.kill("SIGTERM");
    expect(await web.exited).toEqual({ code: 0, signal: null });
  }, 180_000);
});
