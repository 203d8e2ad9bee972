import { jsonBody } from "../../../server/http/json-body";
import { ownerProcedure } from "../../auth/procedures";
import { upsertBankAccounts } from "../bank-accounts";
import { collectionResponse } from "../collection";
import { lockOwnerRoster } from "../lock";
import { bankAccountsMeta, bankAccountsOutput } from "./bank-accounts.types";
import { collectionInput } from "./collection.types";

export const upsertBankAccountsProcedure = ownerProcedure("onboarding:write")
  .meta(bankAccountsMeta)
  .input(jsonBody(collectionInput))
  .output(bankAccountsOutput)
  .mutation(async ({ ctx, input }) =>
    collectionResponse(
      await ctx.db.transaction(async (tx) => {
        await lockOwnerRoster(tx, ctx.owner.id);
        return upsertBankAccounts(tx, ctx.owner.id, input.items);
      }),
    ),
  );
