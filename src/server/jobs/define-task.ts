import { sql } from "drizzle-orm";
import type { JobHelpers, Task, TaskList } from "graphile-worker";
import type { z } from "zod";
import type { Tx } from "../db/client";
import { observeJob } from "../observability/metrics";
import { inJobSpan, outsideTrace, TRACE_FIELD, traceFields, tracingOn } from "../observability/tracing";

/**
 * What adding a job needs of a task: its name, payload schema and attempt limit. A task whose jobs
 * are added by code its handler depends on declares this part apart (`declareTask`), so the adder
 * imports the declaration and no import cycle forms; the definition then spreads it.
 */
export type TaskDeclaration<Payload = unknown> = {
  readonly name: string;
  readonly payload: z.ZodType<Payload>;
  /** graphile-worker's attempts before the job is given up (its default is 25, over days). */
  readonly maxAttempts?: number;
};

/**
 * One definition per task (style §5): its name, its payload schema and its handler. The definition
 * is both the task list's entry and the handle jobs are added with (`addJob(tx, task, payload)`),
 * so a misspelt task or a wrong payload does not compile.
 */
export type TaskDefinition<Payload = unknown> = TaskDeclaration<Payload> & {
  /**
   * Recurring tasks: run again this many seconds after each run (a chain kept alive by a job key),
   * started with every worker and backed by a crontab entry each minute.
   */
  readonly everySeconds?: () => number;
  /**
   * Tasks run at set times: a graphile-worker crontab schedule and its options (times in UTC), e.g.
   * `5 0 * * * ?fill=1d` (daily at 00:05, a run missed while no worker was up made up within a day).
   * Every worker lists it; graphile-worker queues each scheduled run once.
   */
  readonly crontab?: string;
  readonly handler: (payload: Payload, helpers: JobHelpers) => Promise<void>;
};

/** A task of any payload, as task lists hold them. */
// biome-ignore lint/suspicious/noExplicitAny: a list of tasks holds handlers of different payloads.
export type AnyTask = TaskDefinition<any>;

export function declareTask<Payload>(declaration: TaskDeclaration<Payload>): TaskDeclaration<Payload> {
  if (!/^[a-z][a-z0-9_]*__[a-z][a-z0-9_]*$/.test(declaration.name)) throw new Error(`Task names are <entity>__<action>: ${declaration.name}`);
  return declaration;
}

export function defineTask<Payload>(definition: TaskDefinition<Payload>): TaskDefinition<Payload> {
  declareTask(definition);
  return definition;
}

export type AddJobOptions = {
  /** A newer job with the same key replaces a pending older one (style §5). */
  jobKey?: string;
  jobKeyMode?: "replace" | "preserve_run_at" | "unsafe_dedupe";
  runAt?: Date;
  queueName?: string;
  priority?: number;
};

/**
 * Adds a job through the caller's transaction, so the job exists exactly when the change that
 * caused it commits (decisions §1: "no lost events").
 */
export async function addJob<Payload>(tx: Tx, task: TaskDeclaration<Payload>, payload: NoInfer<Payload>, options: AddJobOptions = {}): Promise<void> {
  // Checked when added too: a bad payload fails the change that caused it, not a job hours later.
  const checked = task.payload.parse(payload ?? {});
  await tx.execute(sql`select graphile_worker.add_job(
    ${task.name}::text,
    ${JSON.stringify(traced(checked))}::json,
    queue_name => ${options.queueName ?? null}::text,
    run_at => ${options.runAt?.toISOString() ?? null}::timestamptz,
    max_attempts => ${task.maxAttempts ?? null}::int,
    job_key => ${options.jobKey ?? null}::text,
    priority => ${options.priority ?? null}::int,
    job_key_mode => ${options.jobKeyMode ?? "replace"}::text
  )`);
}

/**
 * Adds many jobs of one task in one statement, through the caller's transaction. With
 * `preserveRunAt`, a job whose key is already pending keeps its run time (a burst coalesces).
 */
export async function addJobs<Payload>(
  tx: Tx,
  task: TaskDeclaration<Payload>,
  jobs: readonly { payload: NoInfer<Payload>; jobKey?: string; runAt?: Date }[],
  options: { preserveRunAt?: boolean } = {},
): Promise<void> {
  if (jobs.length === 0) return;
  const specs = jobs.map((job) => ({
    payload: traced(task.payload.parse(job.payload ?? {})),
    key: job.jobKey ?? null,
    run_at: job.runAt?.toISOString() ?? null,
  }));
  await tx.execute(sql`select graphile_worker.add_jobs(array(
      select row(${task.name}::text, s.payload, null, s.run_at, ${task.maxAttempts ?? null}::int, s.key, null, null)::graphile_worker.job_spec
      from json_to_recordset(${JSON.stringify(specs)}::json) as s(payload json, key text, run_at timestamptz)
    ), job_key_preserve_run_at => ${options.preserveRunAt ?? false})`);
}

/**
 * A job's payload with the active trace context in its reserved field (docs/decisions.md, Traces),
 * so the job's span continues the trace of what added it; as is when traces are off.
 */
function traced<Payload>(payload: Payload): Payload {
  const fields = traceFields();
  return fields && typeof payload === "object" && payload !== null ? { ...payload, [TRACE_FIELD]: fields } : payload;
}

/** The job key of a recurring task's chain: one pending run at a time. */
export const recurringJobKey = (task: AnyTask) => `recurring:${task.name}`;

/**
 * graphile-worker keeps only an error's message as the job's `last_error`, and a failed query's
 * message names the statement but not why it failed (that is its `cause`): the cause comes first.
 */
export function withCause(task: Task): Task {
  return async (payload, helpers) => {
    try {
      return await task(payload, helpers);
    } catch (error) {
      const cause = error instanceof Error ? (error.cause as (Error & { code?: string; detail?: string; where?: string }) | undefined) : undefined;
      if (!(cause instanceof Error)) throw error;
      const context = [cause.detail, cause.where].filter(Boolean).join("; ");
      throw new Error(`${cause.code ? `${cause.code}: ` : ""}${cause.message}${context ? ` [${context}]` : ""} (${(error as Error).message})`, {
        cause: error,
      });
    }
  };
}

/** The worker's task list from the definitions: payloads validated first, recurring tasks rescheduled. */
export function taskListOf(definitions: readonly AnyTask[], reschedule: (task: AnyTask) => Promise<void>): TaskList {
  const names = new Set<string>();
  const list: TaskList = {};
  for (const definition of definitions) {
    if (names.has(definition.name)) throw new Error(`Task ${definition.name} is defined twice`);
    names.add(definition.name);
    const run = async (raw: unknown, helpers: JobHelpers): Promise<void> => {
      const started = performance.now();
      try {
        const payload = definition.payload.parse(raw ?? {});
        try {
          await definition.handler(payload, helpers);
        } finally {
          // The next run starts a trace of its own: a recurring chain is not one endless trace.
          if (definition.everySeconds) await outsideTrace(() => reschedule(definition));
        }
        observeJob(definition.name, "success", (performance.now() - started) / 1000);
      } catch (error) {
        observeJob(definition.name, helpers.job.attempts >= helpers.job.max_attempts ? "failed" : "error", (performance.now() - started) / 1000);
        throw error;
      }
    };
    // Traces on: the job's span, a child of the context that added it (docs/decisions.md, Traces).
    list[definition.name] = withCause((raw, helpers) =>
      tracingOn() ? inJobSpan(definition.name, helpers.job.id, helpers.job.attempts, raw, () => run(raw, helpers)) : run(raw, helpers),
    );
  }
  return list;
}

/**
 * Recurring tasks also run from graphile-worker's crontab each minute, a backstop to their chain;
 * scheduled tasks run at their own crontab times.
 */
export function crontabOf(definitions: readonly AnyTask[]): string {
  const recurring = definitions.filter((definition) => definition.everySeconds).map((definition) => `* * * * * ${definition.name}`);
  const scheduled = definitions.flatMap((definition) => {
    if (!definition.crontab) return [];
    const [schedule, options] = definition.crontab.trim().split(/\s+(?=\?)/);
    return [`${schedule} ${definition.name}${options ? ` ${options}` : ""}`];
  });
  return [...recurring, ...scheduled].join("\n");
}
