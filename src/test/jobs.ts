import { sql } from "drizzle-orm";
import { runOnce, type Task, type TaskList } from "graphile-worker";
import pg from "pg";
import { FEATURE_TASKS } from "../composition/tasks";
import { databaseUrl, getDb } from "../server/db/client";
import { quietWorkerLogger } from "../server/jobs/logger";
import { workerTaskList } from "../server/jobs/worker";

/**
 * graphile-worker's `runOnce` returns before the pool it made has closed, and a test file's database
 * dropped in that moment fails the run with "terminating connection" (57P01): each run gets its own
 * pool, closed before returning.
 */
async function runOnceWith(taskList: TaskList): Promise<void> {
  const pgPool = new pg.Pool({ connectionString: await databaseUrl(), max: 4 });
  // An idle connection ended by the server (the test database dropped): nothing to do. graphile-worker
  // also wants each client's own error handler.
  pgPool.on("error", () => {});
  pgPool.on("connect", (client) => client.on("error", () => {}));
  try {
    await runOnce({ pgPool, taskList, logger: quietWorkerLogger, noHandleSignals: true });
  } finally {
    await pgPool.end();
  }
}

/** Runs every job that is due in this test file's database, with the real task list, then returns. */
export async function runDueJobs(): Promise<void> {
  await runOnceWith(workerTaskList(FEATURE_TASKS));
}

/** Like `runDueJobs`, and answers how many jobs of each task ran (the real tasks, only counted). */
export async function runDueJobsCounted(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const counted: TaskList = Object.fromEntries(
    Object.entries(workerTaskList(FEATURE_TASKS) as Record<string, Task>).map(([name, task]) => [
      name,
      (payload: unknown, helpers: Parameters<Task>[1]) => {
        counts[name] = (counts[name] ?? 0) + 1;
        return task(payload, helpers);
      },
    ]),
  );
  await runOnceWith(counted);
  return counts;
}

export type QueuedJob = {
  id: string;
  payload: unknown;
  key: string | null;
  attempts: number;
  max_attempts: number;
  locked: boolean;
  due_in_seconds: number;
};

/** The queued (not yet completed) jobs of a task, oldest first. */
export async function queuedJobs(task: string): Promise<QueuedJob[]> {
  const db = await getDb();
  // The public `jobs` view omits payloads; the private table holds them.
  return db.execute<QueuedJob>(
    sql`select j.id::text, j.payload, j.key, j.attempts, j.max_attempts, j.locked_at is not null as locked, extract(epoch from j.run_at - now())::float8 as due_in_seconds
        from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = ${task} order by j.id`,
  );
}

/** Makes the scheduled retries of a task due now, as if their backoff had passed. */
export async function makeRetriesDue(task: string): Promise<void> {
  const db = await getDb();
  await db.execute(sql`update graphile_worker._private_jobs j set run_at = now()
    from graphile_worker._private_tasks t where t.id = j.task_id and t.identifier = ${task} and j.run_at > now()`);
}

/**
 * Runs attempt number `attempt` of the task's queued job with key `key`: makes its retry due, runs
 * the queue, and waits until the worker has released the job (failures are recorded asynchronously).
 */
export async function runAttempt(task: string, key: string, attempt: number): Promise<QueuedJob | undefined> {
  await makeRetriesDue(task);
  await runDueJobs();
  for (let waited = 0; waited < 5_000; waited += 50) {
    const job = (await queuedJobs(task)).find((queued) => queued.key === key);
    if (!job || (job.attempts >= attempt && !job.locked)) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${task}: attempt ${attempt} was not recorded`);
}
