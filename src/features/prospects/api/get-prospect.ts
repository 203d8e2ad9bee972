import { errors } from "../../../server/errors";
import { signedOwnerProcedure } from "../../auth/procedures";
import { PROSPECT_MESSAGES } from "../messages";
import { findProspectWithSource } from "../service";
import { prospectView } from "../view";
import { getProspectInput, getProspectMeta } from "./get-prospect.types";
import { prospectOutput } from "./upsert-prospect.types";

export const getProspectProcedure = signedOwnerProcedure("prospects:read")
  .meta(getProspectMeta)
  .input(getProspectInput)
  .output(prospectOutput)
  .query(async ({ ctx, input }) => {
    const found = await findProspectWithSource(ctx.db, ctx.owner.id, ctx.client.id, input.source, input.source_prospect_id);
    if (!found) throw errors.notFound(PROSPECT_MESSAGES.notFound);
    return { status_code: 200, prospect: prospectView(found.prospect, ctx.owner, found.source) };
  });
