import { jsonBody } from "../../../server/http/json-body";
import { signedOwnerProcedure } from "../../auth/procedures";
import { sourceForClient, upsertProspect } from "../service";
import { prospectView } from "../view";
import { prospectOutput, upsertProspectInput, upsertProspectMeta } from "./upsert-prospect.types";

export const upsertProspectProcedure = signedOwnerProcedure("prospects:write")
  .meta(upsertProspectMeta)
  .input(jsonBody(upsertProspectInput))
  .output(prospectOutput)
  .mutation(async ({ ctx, input }) => {
    const fields = input.prospect;
    const { prospect, created, source } = await ctx.db.transaction(async (tx) => {
      const source = await sourceForClient(tx, fields.source as string, ctx.client.id);
      return { ...(await upsertProspect(tx, { owner: ctx.owner, clientId: ctx.client.id, source, fields })), source };
    });
    // spec Prospect rules 1: HTTP 200 both ways; the body says 201 on create.
    return { status_code: created ? 201 : 200, prospect: prospectView(prospect, ctx.owner, source) };
  });
