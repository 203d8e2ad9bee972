import { sql } from "drizzle-orm";
import type { Tx } from "../db/client";

export type AddJobOptions = {
  /** A newer job with the same key replaces a pending older one (style §5). */
  jobKey?: string;
  jobKeyMode?: "replace" | "preserve_run_at" | "unsafe_dedupe";
  runAt?: Date;
  maxAttempts?: number;
  queueName?: string;
  priority?: number;
};

/**
 * Adds a graphile-worker job through the caller's transaction, so the job exists exactly when the
 * change that caused it commits (decisions §1: "no lost events").
 */
export async function addJob(tx: Tx, task: string, payload: unknown, options: AddJobOptions = {}): Promise<void> {
  await tx.execute(sql`select graphile_worker.add_job(
    ${task}::text,
    ${JSON.stringify(payload ?? {})}::json,
    queue_name => ${options.queueName ?? null}::text,
    run_at => ${options.runAt?.toISOString() ?? null}::timestamptz,
    max_attempts => ${options.maxAttempts ?? null}::int,
    job_key => ${options.jobKey ?? null}::text,
    priority => ${options.priority ?? null}::int,
    job_key_mode => ${options.jobKeyMode ?? "replace"}::text
  )`);
}
