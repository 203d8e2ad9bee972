import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createTestCertificates } from "../src/test/tls";
import { deliveriesBench } from "./deliveries.bench";
import { enrollmentBench } from "./enrollment.bench";
import { startService } from "./lib/service";
import { ownersBench } from "./owners.bench";
import { policiesBench } from "./policies.bench";
import { prospectsBench } from "./prospects.bench";
import { ratelimitBench } from "./ratelimit.bench";
import { retentionBench } from "./retention.bench";
import { rosterBench } from "./roster.bench";
import { webhooksBench } from "./webhooks.bench";

/**
 * `npm run bench`: starts the built service once (with a throwaway CA trusted for the local HTTPS
 * webhook receivers) and runs every benchmark against it. `npm run bench -- webhooks` runs one;
 * `npm run bench -- isolation [part…]` runs bench/isolation.bench.ts (not part of the full run).
 */
// The policies benchmark has its own database and calls the Partner API handler in process: no built service.
if (process.argv[2] === "policies") {
  await policiesBench();
  process.exit(0);
}
// So has the retention benchmark (1,020,000 deliveries of its own).
if (process.argv[2] === "retention") {
  await retentionBench();
  process.exit(0);
}
// The isolation benchmark starts its own services (and a baseline checkout's): no shared service.
if (process.argv[2] === "isolation") {
  const { isolationBench } = await import("./isolation.bench");
  await isolationBench(process.argv.slice(3));
  process.exit(0);
}
// The request limit's benchmark starts its own door too (a process of its own, restarted per setting).
if (process.argv[2] === "ratelimit") {
  await ratelimitBench();
  process.exit(0);
}
// The fault scenarios start their own deployment (bench/faults/cluster.ts): no shared service.
if (process.argv[2]?.startsWith("faults-")) {
  const { faultScenario } = await import("./faults/scenarios");
  await faultScenario(process.argv[2], process.argv.slice(3));
  process.exit(0);
}
const tls = createTestCertificates(path.resolve(".data", "bench-tls"));
// BENCH_WORKER=process runs the jobs in one separate worker process (WORKER=off on the web side).
const worker = process.env.BENCH_WORKER === "process" ? "process" : "inline";
process.stdout.write(`service: web process + ${worker === "process" ? "one separate worker process (WORKER=off)" : "inline worker"}\n`);
const service = await startService(
  Number(process.env.BENCH_PORT ?? 3310),
  "bench",
  {
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1",
    NODE_EXTRA_CA_CERTS: tls.ca,
    WORKER_CONCURRENCY: process.env.WORKER_CONCURRENCY ?? "16",
  },
  { worker },
);
const only = process.argv[2];
const dataDir = path.join(".data", "bench");
// Benchmarks that call the service's code directly use its data directory (its keys) too.
process.env.DATA_DIR = dataDir;
// The service's own address: its Unix socket when it has one (src/server/db/embedded.ts), as the
// service's processes use it, so the in-process baseline and the floor connect as the service does.
const instance = JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8")) as { url: string; socketUrl?: string };
const databaseUrl = instance.socketUrl ?? instance.url;
try {
  if (!only || only === "owners") await ownersBench(service);
  if (!only || only === "roster") await rosterBench(service, dataDir);
  if (!only || only === "prospects") await prospectsBench(service, databaseUrl, tls);
  if (!only || only === "webhooks") await webhooksBench(service, databaseUrl, tls);
  if (!only || only === "enrollment") await enrollmentBench(service, databaseUrl, tls);
  if (!only || only === "deliveries") await deliveriesBench(service, databaseUrl);
} finally {
  await service.stop();
}
// In a process of its own: it points the database client at its own database.
if (!only) spawnSync(process.execPath, ["--import", "tsx", "bench/run.ts", "policies"], { stdio: "inherit" });
if (!only) spawnSync(process.execPath, ["--import", "tsx", "bench/run.ts", "retention"], { stdio: "inherit" });
if (!only) spawnSync(process.execPath, ["--import", "tsx", "bench/run.ts", "ratelimit"], { stdio: "inherit" });
