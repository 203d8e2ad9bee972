import { type Runner, run } from "graphile-worker";
import { REAPER_KEY } from "../../features/webhooks/webhook_delivery__reap";
import { getDb } from "../db/client";
import { logger } from "../log";
import { addJob } from "./add-job";
import { quietWorkerLogger } from "./logger";
import { crontab, taskList } from "./tasks";

export type WorkerState = { mode: "inline" | "process" | "off"; running: boolean; startedAt?: string };

// Next.js bundles instrumentation and route handlers separately: the worker's state lives on
// globalThis so /healthz, served by a route handler, sees the worker that instrumentation started.
const slot = globalThis as unknown as { [key: symbol]: { runner?: Runner; state: WorkerState } };
const KEY = Symbol.for("pis.worker");
slot[KEY] ??= { state: { mode: "off", running: false } };
const shared = slot[KEY];

/** Starts graphile-worker in this process (inline in the web server, or `npm run worker`). */
export async function startWorker(url: string, mode: "inline" | "process", concurrency = 10): Promise<Runner> {
  if (shared.runner) return shared.runner;
  const runner = await run({
    connectionString: url,
    taskList,
    crontab,
    concurrency,
    // One connection per concurrently running job, and a couple for fetching and LISTEN.
    maxPoolSize: Math.max(10, concurrency + 2),
    noHandleSignals: true,
    pollInterval: 1000,
    // Completed jobs are marked in batches instead of one statement each. (A local queue would fetch
    // in batches too, but jobs it holds stayed locked after a worker was killed: not used.)
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    logger: quietWorkerLogger,
  });
  shared.runner = runner;
  // Starts the reaper's self-rescheduling chain (a no-op when one is already queued).
  await addJob(await getDb(), "webhook_delivery__reap", {}, { jobKey: REAPER_KEY, jobKeyMode: "preserve_run_at" });
  shared.state = { mode, running: true, startedAt: new Date().toISOString() };
  runner.promise
    .catch((error) => logger().error({ err: error }, "worker stopped with an error"))
    .finally(() => {
      shared.state = { ...shared.state, running: false };
    });
  logger().info({ mode, concurrency }, "worker started");
  return runner;
}

export async function stopWorker(): Promise<void> {
  const current = shared.runner;
  shared.runner = undefined;
  if (current) await current.stop();
  shared.state = { ...shared.state, running: false };
}

export function workerState(): WorkerState {
  return shared.state;
}
