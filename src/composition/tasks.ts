import { idempotencyKeyPrune } from "../features/auth/idempotency_key__prune";
import { billingRun } from "../features/billing/billing__run";
import { applicationUnderwrite } from "../features/enrollment/underwriting/application__underwrite.handler";
import { ingestionEventApply } from "../features/ingestion/ingestion_event__apply";
import { renterMessageCoverageEnding } from "../features/messages/renter_message__coverage_ending";
import { renterMessageSend } from "../features/messages/renter_message__send.handler";
import { paymentReconcile } from "../features/payments/payment__reconcile";
import { stripeEventHandle } from "../features/payments/stripe/stripe_event__handle.handler";
import { policyExpireDue } from "../features/policies/lifecycle/policy__expire_due";
import { policyBuildDocuments } from "../features/policies/policy__build_documents";
import { refundSend } from "../features/policies/refunds/refund__send";
import { prospectCheckEligibility } from "../features/prospects/prospect__check_eligibility";
import { prospectReevaluate } from "../features/prospects/prospect__reevaluate.handler";
import { retentionPrune } from "../features/retention/retention__prune";
import { webhookDeliveryBulkRetry } from "../features/webhooks/console/webhook_delivery__bulk_retry";
import { webhookDispatcherService } from "../features/webhooks/dispatcher";
import { webhookDeliveryAttempt } from "../features/webhooks/webhook_delivery__attempt.handler";
import { webhookDeliveryReap } from "../features/webhooks/webhook_delivery__reap";
import { webhookEndpointSuspendFailing } from "../features/webhooks/webhook_endpoint__suspend_failing";
import type { AnyTask } from "../server/jobs/define-task";
import type { WorkerService } from "../server/jobs/worker";

/** Every feature's tasks, one file each, named `<entity>__<action>` (style §5); the job runner adds its own. */
export const FEATURE_TASKS: readonly AnyTask[] = [
  applicationUnderwrite,
  billingRun,
  idempotencyKeyPrune,
  ingestionEventApply,
  paymentReconcile,
  policyBuildDocuments,
  policyExpireDue,
  prospectCheckEligibility,
  prospectReevaluate,
  renterMessageCoverageEnding,
  renterMessageSend,
  refundSend,
  retentionPrune,
  stripeEventHandle,
  webhookDeliveryAttempt,
  webhookDeliveryBulkRetry,
  webhookDeliveryReap,
  webhookEndpointSuspendFailing,
];

/** What every worker process runs beside its jobs: the webhook dispatcher (docs/decisions.md, "Delivery engine: a dispatcher per worker"). */
export const WORKER_SERVICES: readonly WorkerService[] = [webhookDispatcherService];
