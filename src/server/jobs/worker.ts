import { type Runner, run } from "graphile-worker";
import { getDb } from "../db/client";
import { logger } from "../log";
import { type AnyTask, addJob, crontabOf, recurringJobKey, taskListOf } from "./define-task";
import { quietWorkerLogger } from "./logger";
import { systemNoop } from "./system__noop";
import { systemUnlockStaleWorkers } from "./system__unlock_stale_workers";

export type WorkerState = { mode: "inline" | "process" | "off"; running: boolean; startedAt?: string };

/** The job runner's own tasks, added to every worker's list. */
export const SYSTEM_TASKS: readonly AnyTask[] = [systemNoop, systemUnlockStaleWorkers];

// Next.js bundles instrumentation and route handlers separately: the worker's state lives on
// globalThis so /healthz, served by a route handler, sees the worker that instrumentation started.
const slot = globalThis as unknown as { [key: symbol]: { runner?: Runner; state: WorkerState } };
const KEY = Symbol.for("pis.worker");
slot[KEY] ??= { state: { mode: "off", running: false } };
const shared = slot[KEY];

/** Runs a recurring task again after its interval (one pending run at a time, by its job key). */
async function scheduleNextRun(task: AnyTask, mode: "replace" | "preserve_run_at" = "replace"): Promise<void> {
  const seconds = task.everySeconds?.() ?? 60;
  await addJob(await getDb(), task, {}, { jobKey: recurringJobKey(task), jobKeyMode: mode, runAt: new Date(Date.now() + seconds * 1000) });
}

/** The worker's task list: the features' tasks (the composition root's list) and the system's. */
export function workerTaskList(tasks: readonly AnyTask[]) {
  return taskListOf([...tasks, ...SYSTEM_TASKS], (task) => scheduleNextRun(task));
}

/** Starts graphile-worker in this process (inline in the web server, or `npm run worker`). */
export async function startWorker(url: string, mode: "inline" | "process", options: { tasks: readonly AnyTask[]; concurrency: number }): Promise<Runner> {
  if (shared.runner) return shared.runner;
  const all = [...options.tasks, ...SYSTEM_TASKS];
  const runner = await run({
    connectionString: url,
    taskList: workerTaskList(options.tasks),
    crontab: crontabOf(all),
    concurrency: options.concurrency,
    // One connection per concurrently running job, and a couple for fetching and LISTEN.
    maxPoolSize: Math.max(10, options.concurrency + 2),
    noHandleSignals: true,
    pollInterval: 1000,
    // Completed jobs are marked in batches instead of one statement each. (A local queue would fetch
    // in batches too, but jobs it holds stayed locked after a worker was killed: not used.)
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    logger: quietWorkerLogger,
  });
  shared.runner = runner;
  // Starts each recurring task's chain (a no-op where one is already queued).
  for (const task of all) if (task.everySeconds) await scheduleNextRun(task, "preserve_run_at");
  shared.state = { mode, running: true, startedAt: new Date().toISOString() };
  runner.promise
    .catch((error) => logger().error({ err: error }, "worker stopped with an error"))
    .finally(() => {
      shared.state = { ...shared.state, running: false };
    });
  logger().info({ mode, concurrency: options.concurrency }, "worker started");
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
