import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { eq, lt, sql } from "drizzle-orm";
import { type Runner, run, type WorkerEvents, type WorkerPool } from "graphile-worker";
import { getConfig } from "../config";
import { getDb } from "../db/client";
import { logger } from "../log";
import { type AnyTask, addJob, crontabOf, recurringJobKey, taskListOf } from "./define-task";
import { workerHeartbeats } from "./heartbeats.table";
import { quietWorkerLogger } from "./logger";
import { systemNoop } from "./system__noop";
import { systemUnlockStaleWorkers } from "./system__unlock_stale_workers";

export type WorkerState = { mode: "inline" | "process" | "off"; running: boolean; startedAt?: string };

/** The job runner's own tasks, added to every worker's list. */
export const SYSTEM_TASKS: readonly AnyTask[] = [systemNoop, systemUnlockStaleWorkers];

// Next.js bundles instrumentation and route handlers separately: the worker's state lives on
// globalThis so readiness, served by the front server, sees the worker that instrumentation started.
const slot = globalThis as unknown as { [key: symbol]: { runner?: Runner; pool?: WorkerPool; heartbeat?: Heartbeat; state: WorkerState } };
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
  // The pool itself, for a forceful stop of jobs still running at the shutdown timeout (stopWorker).
  const events: WorkerEvents = new EventEmitter();
  events.on("pool:create", ({ workerPool }) => {
    shared.pool = workerPool;
  });
  const runner = await run({
    events,
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
    // Running jobs' abort signal fires with the shutdown budget (stopWorker).
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0, gracefulShutdownAbortTimeout: getConfig().shutdownTimeoutSeconds * 1000 } },
    logger: quietWorkerLogger,
  });
  shared.runner = runner;
  shared.heartbeat = await startHeartbeat(mode);
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

/**
 * Stops taking jobs and lets running ones finish within SHUTDOWN_TIMEOUT_SECONDS (decisions §14,
 * Shutdown); jobs still running then are handed back at once (graphile-worker's forceful stop
 * unlocks them, the attempt counted), not left locked until the stale-lock time. Tasks ignore
 * graphile-worker's abort signal, so its own graceful stop alone would wait for them unbounded.
 */
export async function stopWorker(): Promise<void> {
  const current = shared.runner;
  shared.runner = undefined;
  if (current) {
    const budgetMs = getConfig().shutdownTimeoutSeconds * 1000;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      current.stop().then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), budgetMs);
      }),
    ]).finally(() => clearTimeout(timer));
    // runner.kill() goes forceful only for a pool not already stopping: the pool is asked directly.
    if (!finished) {
      logger().warn({ budgetMs }, "jobs still running at the shutdown timeout: handed back");
      if (shared.pool) await Promise.resolve(shared.pool.forcefulShutdown("shutdown timeout")).catch(() => {});
    }
    shared.pool = undefined;
  }
  shared.state = { ...shared.state, running: false };
  await shared.heartbeat?.stop();
  shared.heartbeat = undefined;
}

type Heartbeat = { stop: () => Promise<void> };

/**
 * This worker's row in `worker_heartbeats`, written every few seconds while it runs (readiness:
 * src/server/health.ts) and deleted when it stops. Rows of workers killed a day ago are removed.
 */
async function startHeartbeat(mode: "inline" | "process"): Promise<Heartbeat> {
  const db = await getDb();
  const id = randomUUID();
  const bound = getConfig().readyWorkerHeartbeatSeconds;
  const everyMs = Math.max(1000, Math.min(5000, (bound * 1000) / 3));
  const beat = () =>
    db
      .insert(workerHeartbeats)
      .values({ id, mode })
      .onConflictDoUpdate({ target: workerHeartbeats.id, set: { beatAt: sql`now()` } })
      .then(() => undefined);
  await db.delete(workerHeartbeats).where(lt(workerHeartbeats.beatAt, sql`now() - interval '1 day'`));
  await beat();
  // A missed beat (database unavailable) is what readiness reports; nothing to do here.
  const timer = setInterval(() => beat().catch(() => {}), everyMs);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await db
        .delete(workerHeartbeats)
        .where(eq(workerHeartbeats.id, id))
        .catch(() => {});
    },
  };
}

export function workerState(): WorkerState {
  return shared.state;
}
