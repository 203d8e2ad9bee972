import type { TaskList } from "graphile-worker";
import { ingestionEventApply } from "../../features/ingestion/ingestion_event__apply";
import { prospectCheckEligibility } from "../../features/prospects/prospect__check_eligibility";
import { webhookDeliveryAttempt } from "../../features/webhooks/webhook_delivery__attempt";
import { webhookDeliveryReap } from "../../features/webhooks/webhook_delivery__reap";
import { systemNoop } from "./system__noop";

/** Every task of every feature, one file each, named `<entity>__<action>` (style §5). */
export const taskList: TaskList = {
  ingestion_event__apply: ingestionEventApply,
  prospect__check_eligibility: prospectCheckEligibility,
  system__noop: systemNoop,
  webhook_delivery__attempt: webhookDeliveryAttempt,
  webhook_delivery__reap: webhookDeliveryReap,
};

/** Recurring work (style §5): the delivery reaper every minute, as a backstop to its own rescheduling. */
export const crontab = "* * * * * webhook_delivery__reap";
