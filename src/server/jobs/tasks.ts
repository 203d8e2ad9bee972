import type { Task, TaskList } from "graphile-worker";
import { ingestionEventApply } from "../../features/ingestion/ingestion_event__apply";
import { prospectCheckEligibility } from "../../features/prospects/prospect__check_eligibility";
import { webhookDeliveryAttempt } from "../../features/webhooks/webhook_delivery__attempt";
import { webhookDeliveryReap } from "../../features/webhooks/webhook_delivery__reap";
import { systemNoop } from "./system__noop";

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

/** Every task of every feature, one file each, named `<entity>__<action>` (style §5). */
export const taskList: TaskList = Object.fromEntries(
  Object.entries({
    ingestion_event__apply: ingestionEventApply,
    prospect__check_eligibility: prospectCheckEligibility,
    system__noop: systemNoop,
    webhook_delivery__attempt: webhookDeliveryAttempt,
    webhook_delivery__reap: webhookDeliveryReap,
  }).map(([name, task]) => [name, withCause(task)]),
);

/** Recurring work (style §5): the delivery reaper every minute, as a backstop to its own rescheduling. */
export const crontab = "* * * * * webhook_delivery__reap";
