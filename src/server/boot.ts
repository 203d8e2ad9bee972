import { getConfig } from "./config";
import { closeDb, databaseUrl, waitForDatabase } from "./db/client";
import { migrateDatabase } from "./db/migrate";
import type { AnyTask } from "./jobs/define-task";
import { startWorker, stopWorker, type WorkerService } from "./jobs/worker";
import { onStop } from "./lifecycle";
import { logger } from "./log";
import { startTracing, stopTracing } from "./observability/tracing";
import { rootSecrets } from "./secrets";
import { refuseUnsafeStart } from "./start-check";

const BOOTED = Symbol.for("pis.booted");

/**
 * Web process start (scripts/serve.ts, before Next.js prepares): database (embedded when
 * DATABASE_URL is unset), migrations, and the worker when WORKER=inline, in the door's module
 * instance (docs/decisions.md "Structure: one door into the gateways"). Guarded: a second call does nothing.
 */
export async function bootWebProcess(options: { tasks: readonly AnyTask[]; services?: readonly WorkerService[] }): Promise<void> {
  const globals = globalThis as unknown as Record<symbol, boolean>;
  if (globals[BOOTED]) return;
  globals[BOOTED] = true;
  // scripts/serve.ts run without scripts/start.ts (the image, `npm run dev`): the same refusals (decisions §14).
  refuseUnsafeStart();
  rootSecrets();
  await startTracing(); // before the database opens: its client is traced when it opens
  const config = getConfig();
  // next-auth v4 builds its URLs from NEXTAUTH_URL (stack notes): the console's auth routes.
  process.env.NEXTAUTH_URL ??= `${config.publicBaseUrl}/console/api/auth`;
  const url = await databaseUrl();
  // Started while PostgreSQL is down or restarting: wait for it (docs/decisions.md "Operations: recovery from faults").
  await waitForDatabase();
  await migrateDatabase(url);
  // The front server (scripts/serve.ts) drains its requests first (phase `servers`). Registered before
  // the start: a stop signal while the runner starts stops it (and hands back its jobs).
  onStop("worker", stopWorker);
  if (config.worker === "inline") await startWorker(url, "inline", { tasks: options.tasks, services: options.services, concurrency: config.workerConcurrency });
  onStop("database", closeDb);
  onStop("telemetry", stopTracing);
  logger().info({ appEnv: config.appEnv, worker: config.worker, baseUrl: config.publicBaseUrl }, "service ready");
}
