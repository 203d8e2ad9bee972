import { z } from "zod";
import { declareTask } from "../../../server/jobs/define-task";

/**
 * One received Stripe event to handle (decisions §18: handled in a job, so a slow handler never
 * makes Stripe wait and retry); the handler is in `stripe_event__handle.handler.ts`.
 */
export const stripeEventHandleDeclaration = declareTask({
  name: "stripe_event__handle",
  payload: z.object({ event_id: z.string().min(1) }),
  maxAttempts: 10,
});
