import { FEATURE_TASKS, WORKER_SERVICES } from "../src/composition/tasks";
import { getConfig } from "../src/server/config";
import { closeDb, databaseUrl, waitForDatabase } from "../src/server/db/client";
import { migrateDatabase } from "../src/server/db/migrate";
import { createWorkerHealthServer } from "../src/server/http/worker-health-server";
import { startWorker, stopWorker } from "../src/server/jobs/worker";
import { onStop } from "../src/server/lifecycle";
import { logger } from "../src/server/log";
import { startTracing, stopTracing } from "../src/server/observability/tracing";
import { rootSecrets } from "../src/server/secrets";
import { refuseUnsafeStart } from "../src/server/start-check";

/**
 * `npm run worker`: a separate worker process (WORKER=off on the web side); several may run. With
 * WORKER_HEALTH_PORT it answers /healthz and /readyz there (decisions §14). On SIGTERM/SIGINT it
 * stops taking jobs, lets running ones finish (src/server/lifecycle.ts), then closes the database.
 * A runner that stops because the database went away is replaced (src/server/jobs/worker.ts).
 */
refuseUnsafeStart();
rootSecrets();
const config = getConfig();
await startTracing(); // before the database opens: its client is traced when it opens
// Health first: while the database is awaited, /healthz answers (alive) and /readyz says why not ready.
if (config.workerHealthPort) {
  const health = createWorkerHealthServer();
  await health.listen(config.workerHealthPort);
  // Answers "shutting down" while the jobs finish; closed with the database.
  onStop("database", health.close);
  logger().info({ port: config.workerHealthPort }, "worker health listening");
}
const url = await databaseUrl();
// Started while PostgreSQL is down or restarting: wait for it (docs/decisions.md "Operations: recovery from faults").
await waitForDatabase();
await migrateDatabase(url);
// Registered before the start: a stop signal while the runner starts stops it (and hands back its jobs).
onStop("worker", stopWorker);
await startWorker(url, "process", { tasks: FEATURE_TASKS, services: WORKER_SERVICES, concurrency: config.workerConcurrency });
onStop("database", closeDb);
onStop("telemetry", stopTracing);
