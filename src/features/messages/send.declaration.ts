import { z } from "zod";
import { declareTask } from "../../server/jobs/define-task";

/** Renders a renter message and sends it over SMTP, or keeps it without `SMTP_URL` (`send.ts`). */
export const renterMessageSendTask = declareTask({
  name: "renter_message__send",
  payload: z.object({ messageId: z.number().int().positive() }),
  // The outbox row schedules its own retries (docs/decisions.md, "Renter messages: the outbox"); these
  // attempts only cover a handler that threw (the database away) or a worker that died.
  maxAttempts: 10,
});
