import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { resendMessage } from "../resend";
import { messageDetail, messageDetailOf, messageRow, messageSearchInput, searchMessages } from "./search";

const byId = z.object({ id: z.number().int().positive().max(2_147_483_647) });

/** The console's Messages screen (decisions §19): search and read need `messages.read`; a resend `messages.resend` (audited). */
export const messagesConsoleRouter = router({
  search: staffProcedure("messages.read")
    .input(messageSearchInput)
    .output(z.array(messageRow))
    .query(({ ctx, input }) => searchMessages(ctx.db, input)),
  detail: staffProcedure("messages.read")
    .input(byId)
    .output(messageDetail)
    .query(({ ctx, input }) => messageDetailOf(ctx.db, input.id)),
  resend: staffProcedure("messages.resend")
    .input(byId)
    .output(z.object({ id: z.number().int() }))
    .mutation(({ ctx, input }) => resendMessage(ctx.db, ctx.actor, input.id)),
});
