import { EventEmitter } from "node:events";
import { sql } from "drizzle-orm";
import { type Runner, run, type WorkerEvents, type WorkerPool } from "graphile-worker";
import { getConfig } from "../config";
import { getDb, getSql } from "../db/client";
import { installDriverGuard } from "../db/driver-guard";
import { isStopping } from "../lifecycle";
import { logger } from "../log";
import { type AnyTask, addJob, crontabOf, recurringJobKey, taskListOf } from "./define-task";
import { type Heartbeat, startHeartbeat } from "./heartbeat";
import { quietWorkerLogger } from "./logger";
import { systemNoop } from "./system__noop";
import { systemUnlockStaleWorkers } from "./system__unlock_stale_workers";

export type WorkerState = { mode: "inline" | "process" | "off"; running: boolean; startedAt?: string; restarts?: number };

/** The job runner's own tasks, added to every worker's list. */
export const SYSTEM_TASKS: readonly AnyTask[] = [systemNoop, systemUnlockStaleWorkers];

/**
 * Work a worker process runs beside graphile-worker's runner, started with it and stopped by
 * `stopWorker` within the same shutdown budget (the webhook dispatcher: docs/decisions.md,
 * "Delivery engine: a dispatcher per worker"). It survives a database restart on its own.
 */
export type WorkerService = { name: string; start(): void; stop(budgetMs: number): Promise<void> };

type RunnerSpec = { url: string; mode: "inline" | "process"; tasks: readonly AnyTask[]; concurrency: number };

/**
 * The supervisor of this process's runners: the one running now, the pools of runners that failed
 * (their jobs are handed back once the database answers), and whether the process is stopping.
 */
type Supervisor = {
  stopping: boolean;
  current?: Runner;
  pool?: WorkerPool;
  failedPools: string[];
  services: readonly WorkerService[];
  /** Ends the pause between two runners at once (a stop). */
  wake?: () => void;
  done: Promise<void>;
  /** The first runner's start; a stop that comes meanwhile waits for it, then stops that runner. */
  launching?: Promise<Awaited<ReturnType<typeof launch>> | undefined>;
};

// Next.js bundles its pages apart from the modules scripts/serve.ts imports: the worker's state lives
// on globalThis so every copy of this module in the process sees the worker the web process started.
const slot = globalThis as unknown as { [key: symbol]: { supervisor?: Supervisor; heartbeat?: Heartbeat; state: WorkerState } };
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

/**
 * The pause before the next try after `failures` failed starts or stops in a row: 0.25 s, 0.5 s,
 * then RESTART_DELAY_CAP_MS. A try first asks the database for `select 1` (cheap, silent) and starts
 * a runner only once it answers, so a runner starts within about a second of the database's return
 * (docs/decisions.md "Operations: recovery from faults").
 */
export const RESTART_DELAY_CAP_MS = 1_000;
export function restartDelayMs(failures: number): number {
  return Math.min(250 * 2 ** Math.max(0, failures - 1), RESTART_DELAY_CAP_MS);
}

async function databaseAnswers(): Promise<boolean> {
  try {
    await (await getSql())`select 1`;
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts graphile-worker in this process (inline in the web server, or `npm run worker`) under a
 * supervisor (docs/decisions.md "Operations: recovery from faults"): graphile-worker 0.17 shuts its
 * pool down when the database goes away under running jobs (a worker whose job fetch fails exits,
 * and the pool then stops), so a runner that stops or starts shutting down while this process is
 * not stopping is replaced by a new one after a capped backoff; the jobs the failed runner held are
 * handed back (graphile-worker's `force_unlock_workers`) as soon as the database answers. A runner
 * that cannot start (the database is down) is retried the same way, so this returns at once either way.
 */
export async function startWorker(
  url: string,
  mode: "inline" | "process",
  options: { tasks: readonly AnyTask[]; concurrency: number; services?: readonly WorkerService[] },
): Promise<void> {
  // A stop signal that came while the process started (migrations, the database awaited): nothing to start.
  if (shared.supervisor || isStopping()) return;
  // What the drivers throw outside any caller while the database is away must not end the process.
  installDriverGuard();
  const spec: RunnerSpec = { url, mode, tasks: options.tasks, concurrency: options.concurrency };
  let finish = () => {};
  const supervisor: Supervisor = {
    stopping: false,
    failedPools: [],
    services: options.services ?? [],
    done: new Promise<void>((resolve) => (finish = resolve)),
  };
  shared.supervisor = supervisor;
  shared.state = { mode, running: false, restarts: 0 };
  shared.heartbeat = startHeartbeat(mode, () => shared.state.running);
  // Before the runner: its first jobs may need them (the delivery jobs wake the dispatcher).
  for (const service of supervisor.services) service.start();
  supervisor.launching = launch(supervisor, spec).catch((error: unknown) => {
    logger().error({ err: error }, "worker could not start: trying again");
    return undefined;
  });
  const first = await supervisor.launching;
  if (first && !supervisor.stopping) await running(supervisor, first.runner);
  void supervise(supervisor, spec, first).finally(finish);
  logger().info({ mode, concurrency: options.concurrency, started: first !== undefined }, "worker started");
}

/**
 * A runner runs: readiness says so and the heartbeat, named after the runner's pool (the `locked_by`
 * of the jobs it takes), is written at once.
 */
async function running(supervisor: Supervisor, runner: Runner): Promise<void> {
  supervisor.current = runner;
  shared.state = { ...shared.state, running: true, startedAt: new Date().toISOString() };
  if (supervisor.pool) await shared.heartbeat?.rename(supervisor.pool.id).catch(() => {});
  await shared.heartbeat?.beat().catch(() => {});
}

/** Starts one runner: hands back what failed runners held, then graphile-worker's `run`. */
async function launch(supervisor: Supervisor, spec: RunnerSpec): Promise<{ runner: Runner; failed: Promise<string> }> {
  if (supervisor.failedPools.length) {
    const ids = supervisor.failedPools;
    // Pool ids are graphile-worker's `pool-<hex>`: one array literal parameter.
    await (await getDb()).execute(sql`select graphile_worker.force_unlock_workers(${`{${ids.join(",")}}`}::text[])`);
    supervisor.failedPools = [];
    logger().info({ pools: ids }, "jobs of the stopped runner handed back");
  }
  const all = [...spec.tasks, ...SYSTEM_TASKS];
  const events: WorkerEvents = new EventEmitter();
  // The runner failed: its pool shuts down (or has shut down) while nobody asked it to.
  let failedWith: (reason: string) => void = () => {};
  const failed = new Promise<string>((resolve) => (failedWith = resolve));
  events.on("pool:create", ({ workerPool }) => {
    supervisor.pool = workerPool;
  });
  events.on("pool:gracefulShutdown", ({ message }) => {
    if (!supervisor.stopping) failedWith(message);
  });
  const runner = await run({
    events,
    connectionString: spec.url,
    taskList: workerTaskList(spec.tasks),
    crontab: crontabOf(all),
    concurrency: spec.concurrency,
    // One connection per concurrently running job, and a couple for fetching and LISTEN.
    maxPoolSize: Math.max(10, spec.concurrency + 2),
    noHandleSignals: true,
    pollInterval: 1000,
    // Completed jobs are marked in batches instead of one statement each. (A local queue would fetch
    // in batches too, but jobs it holds stayed locked after a worker was killed: not used.)
    // Running jobs' abort signal fires with the shutdown budget (stopWorker).
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0, gracefulShutdownAbortTimeout: getConfig().shutdownTimeoutSeconds * 1000 } },
    logger: quietWorkerLogger,
  });
  runner.promise.then(
    () => failedWith("runner stopped"),
    (error: unknown) => failedWith(`runner stopped with an error: ${error instanceof Error ? error.message : String(error)}`),
  );
  try {
    // Starts each recurring task's chain (a no-op where one is already queued).
    for (const task of all) if (task.everySeconds) await scheduleNextRun(task, "preserve_run_at");
  } catch (error) {
    await abandon(supervisor, runner, "the database went away while the runner started");
    throw error;
  }
  return { runner, failed };
}

/** Replaces a failed runner until the process stops. */
async function supervise(supervisor: Supervisor, spec: RunnerSpec, first: Awaited<ReturnType<typeof launch>> | undefined): Promise<void> {
  let started = first;
  let failures = started ? 0 : 1;
  while (!supervisor.stopping) {
    if (!started) {
      await pause(supervisor, restartDelayMs(failures));
      if (supervisor.stopping) break;
      if (!(await databaseAnswers())) {
        failures++;
        continue;
      }
      started = await launch(supervisor, spec).catch((error: unknown) => {
        failures++;
        logger().warn({ err: error, failures, nextInMs: restartDelayMs(failures) }, "worker could not start: trying again");
        return undefined;
      });
      if (!started) continue;
      // A stop that came while this runner started: stopWorker did not see it.
      if (supervisor.stopping) {
        await started.runner.stop().catch(() => {});
        break;
      }
      shared.state = { ...shared.state, restarts: (shared.state.restarts ?? 0) + 1 };
      await running(supervisor, started.runner);
      logger().warn({ restarts: shared.state.restarts }, "worker runner restarted");
    }
    failures = 0;
    const reason = await started.failed;
    shared.state = { ...shared.state, running: false };
    if (supervisor.stopping) break;
    failures = 1;
    logger().error({ reason, nextInMs: restartDelayMs(failures) }, "worker runner stopped: starting a new one");
    await abandon(supervisor, started.runner, reason);
    started = undefined;
  }
}

/**
 * A failed runner is given up: its pool is stopped forcefully (running jobs failed, their attempt
 * counted, when the database still answers) and remembered, so the next runner hands back whatever
 * it still held once the database answers.
 */
async function abandon(supervisor: Supervisor, runner: Runner, reason: string): Promise<void> {
  const pool = supervisor.pool;
  if (supervisor.current === runner) supervisor.current = undefined;
  supervisor.pool = undefined;
  if (!pool) return;
  supervisor.failedPools.push(pool.id);
  await Promise.race([Promise.resolve(pool.forcefulShutdown(reason)).catch(() => {}), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  runner.promise.catch(() => {});
}

function pause(supervisor: Supervisor, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      supervisor.wake = undefined;
      resolve();
    }
    supervisor.wake = done;
  });
}

/**
 * Stops taking jobs and lets running ones finish within SHUTDOWN_TIMEOUT_SECONDS (decisions §14,
 * Shutdown); jobs still running then are handed back at once (graphile-worker's forceful stop
 * unlocks them, the attempt counted), not left locked until the stale-lock time. Tasks ignore
 * graphile-worker's abort signal, so its own graceful stop alone would wait for them unbounded.
 */
export async function stopWorker(): Promise<void> {
  const supervisor = shared.supervisor;
  shared.supervisor = undefined;
  if (supervisor) {
    supervisor.stopping = true;
    supervisor.wake?.();
    // A stop while the first runner starts (its first jobs may already run): that runner is stopped too.
    const budgetMs = getConfig().shutdownTimeoutSeconds * 1000;
    const launched = await Promise.race([supervisor.launching, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), budgetMs).unref())]);
    const current = supervisor.current ?? launched?.runner;
    const pool = supervisor.pool;
    // The services drain beside the runner, within the same budget.
    const services = Promise.all(
      supervisor.services.map((service) =>
        service.stop(budgetMs).catch((error: unknown) => logger().error({ err: error, service: service.name }, "worker service did not stop cleanly")),
      ),
    );
    if (current) {
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        current.stop().then(
          () => true,
          () => true,
        ),
        new Promise<false>((resolve) => {
          timer = setTimeout(() => resolve(false), budgetMs);
        }),
      ]).finally(() => clearTimeout(timer));
      // runner.kill() goes forceful only for a pool not already stopping: the pool is asked directly.
      if (!finished) {
        logger().warn({ budgetMs }, "jobs still running at the shutdown timeout: handed back");
        if (pool) await Promise.resolve(pool.forcefulShutdown("shutdown timeout")).catch(() => {});
      }
    }
    await services;
    await Promise.race([supervisor.done, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    // The pool has stopped: nothing it locked can still be running here. A job it locked while its
    // forceful stop counted the active ones (a fetch in flight) would stay locked until the stale-lock
    // time; it is handed back now (measured under load: two such jobs after a 2 s budget).
    if (pool) await handBack(pool.id);
  }
  shared.state = { ...shared.state, running: false };
  await shared.heartbeat?.stop();
  shared.heartbeat = undefined;
}

/** Unlocks every job still locked by the stopped pool `poolId`; the database being away is logged, not thrown. */
async function handBack(poolId: string): Promise<void> {
  try {
    await (await getDb()).execute(sql`select graphile_worker.force_unlock_workers(array[${poolId}]::text[])`);
  } catch (error) {
    logger().warn({ err: error, pool: poolId }, "jobs of the stopped runner could not be handed back: the stale-lock sweep will");
  }
}

export function workerState(): WorkerState {
  return shared.state;
}
