import { idempotencyKeyPrune } from "../features/auth/idempotency_key__prune";
import { billingRun } from "../features/billing/billing__run";
import { applicationUnderwrite } from "../features/enrollment/underwriting/application__underwrite.handler";
import { ingestionEventApply } from "../features/ingestion/ingestion_event__apply";
import { renterMessageCoverageEnding } from "../features/messages/renter_message__coverage_ending";
import { renterMessageSend } from "../features/messages/renter_message__send";
import { policyExpireDue } from "../features/policies/lifecycle/policy__expire_due";
import { policyBuildDocuments } from "../features/policies/policy__build_documents";
import { prospectCheckEligibility } from "../features/prospects/prospect__check_eligibility";
import { prospectReevaluate } from "../features/prospects/prospect__reevaluate.handler";
import { retentionPrune } from "../features/retention/retention__prune";
import { webhookDeliveryBulkRetry } from "../features/webhooks/console/webhook_delivery__bulk_retry";
import { webhookDeliveryAttempt } from "../features/webhooks/webhook_delivery__attempt.handler";
import { webhookDeliveryReap } from "../features/webhooks/webhook_delivery__reap";
import { webhookEndpointSuspendFailing } from "../features/webhooks/webhook_endpoint__suspend_failing";
import type { AnyTask } from "../server/jobs/define-task";

/** Every feature's tasks, one file each, named `<entity>__<action>` (style §5); the job runner adds its own. */
export const FEATURE_TASKS: readonly AnyTask[] = [
  applicationUnderwrite,
  billingRun,
  idempotencyKeyPrune,
  ingestionEventApply,
  policyBuildDocuments,
  policyExpireDue,
  prospectCheckEligibility,
  prospectReevaluate,
  renterMessageCoverageEnding,
  renterMessageSend,
  retentionPrune,
  webhookDeliveryAttempt,
  webhookDeliveryBulkRetry,
  webhookDeliveryReap,
  webhookEndpointSuspendFailing,
];
