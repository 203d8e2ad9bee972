import { type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../server/db/client";
import { addJob, declareTask } from "../../server/jobs/define-task";
import { TRACE_FIELD, traceFields } from "../../server/observability/tracing";

/**
 * The delivery task (CONTRIBUTING.md, Jobs): one job attempts a batch of deliveries (an event's, or
 * those due at one time). Its jobs are added set-based by the statements that write deliveries
 * (`deliveryJobsFrom`); its handler is in `webhook_delivery__attempt.handler.ts`, since the attempt
 * itself writes deliveries (an import cycle otherwise).
 */
export const deliveryTask = declareTask({
  name: "webhook_delivery__attempt",
  // `deliveryId` is the payload of jobs queued before deliveries were batched.
  payload: z.union([z.object({ deliveryIds: z.array(z.string().min(1)) }), z.object({ deliveryId: z.string().min(1) })]),
});

/** A job never carries more deliveries than this; larger sets are split over several jobs. */
export const MAX_DELIVERIES_PER_JOB = 100;

/** Enqueues an attempt of one delivery through the caller's transaction (the retry route). */
export async function enqueueDelivery(tx: Tx, deliveryId: string): Promise<void> {
  await addJob(tx, deliveryTask, { deliveryIds: [deliveryId] });
}

/**
 * A SELECT (for a CTE of a statement that writes deliveries) adding the delivery jobs of the rows
 * `(id, run_at)` that `rows` selects: one job per run time and 100 deliveries, so the jobs commit
 * with the statement's transaction. `rows` is evaluated twice; it must be a plain read of a CTE.
 */
export function deliveryJobsFrom(rows: SQL): SQL {
  return sql`
    select graphile_worker.add_jobs(array(
      select row(${deliveryTask.name}::text, json_build_object('deliveryIds', json_agg(id order by id)${traceField()}), null, run_at, null, null, null, null)::graphile_worker.job_spec
      from (select id, run_at, (row_number() over (partition by run_at order by id) - 1) / ${MAX_DELIVERIES_PER_JOB} as chunk from (${rows}) due) batch
      group by run_at, chunk
    )) as added
    where exists (${rows})`;
}

/** The jobs' trace field when traces are on (docs/decisions.md, Traces): their spans continue the statement's trace. */
function traceField(): SQL {
  const fields = traceFields();
  return fields ? sql`, ${TRACE_FIELD}::text, ${JSON.stringify(fields)}::json` : sql``;
}
