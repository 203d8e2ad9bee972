import { run, type Runner } from "graphile-worker";
import { logger } from "../log";
import { quietWorkerLogger } from "./logger";
import { taskList } from "./tasks";

export type WorkerState = { mode: "inline" | "process" | "off"; running: boolean; startedAt?: string };

let runner: Runner | undefined;
let state: WorkerState = { mode: "off", running: false };

/** Starts graphile-worker in this process (inline in the web server, or `npm run worker`). */
export async function startWorker(url: string, mode: "inline" | "process", concurrency = 10): Promise<Runner> {
  if (runner) return runner;
  runner = await run({
    connectionString: url,
    taskList,
    concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: quietWorkerLogger,
  });
  state = { mode, running: true, startedAt: new Date().toISOString() };
  runner.promise.catch((error) => logger().error({ err: error }, "worker stopped with an error")).finally(() => {
    state = { ...state, running: false };
  });
  logger().info({ mode, concurrency }, "worker started");
  return runner;
}

export async function stopWorker(): Promise<void> {
  const current = runner;
  runner = undefined;
  if (current) await current.stop();
  state = { ...state, running: false };
}

export function workerState(): WorkerState {
  return state;
}
