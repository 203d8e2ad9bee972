import { type Runner, run } from "graphile-worker";
import { logger } from "../log";
import { quietWorkerLogger } from "./logger";
import { taskList } from "./tasks";

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
    concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: quietWorkerLogger,
  });
  shared.runner = runner;
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
