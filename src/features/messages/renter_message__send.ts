import { getDb } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { sendRenterMessage } from "./send";
import { renterMessageSendTask } from "./send.declaration";

/** Renders and sends (or keeps) one renter message (decisions §19 Outbox), added with the message. */
export const renterMessageSend = defineTask({
  ...renterMessageSendTask,
  handler: async ({ messageId }) => {
    await sendRenterMessage(await getDb(), messageId);
  },
});
