import { eq } from "drizzle-orm";
import { errors } from "../../../server/errors";
import { signedOwnerProcedure } from "../../../server/trpc/procedures";
import { PROSPECT_MESSAGES } from "../messages";
import { findProspect } from "../service";
import { sources } from "../sources.table";
import { prospectView } from "../view";
import { getProspectInput, getProspectMeta } from "./get-prospect.types";
import { prospectOutput } from "./upsert-prospect.types";

export const getProspectProcedure = signedOwnerProcedure("prospects:read")
  .meta(getProspectMeta)
  .input(getProspectInput)
  .output(prospectOutput)
  .query(async ({ ctx, input }) => {
    const prospect = await findProspect(ctx.db, ctx.owner.id, input.source, input.source_prospect_id);
    if (!prospect) throw errors.notFound(PROSPECT_MESSAGES.notFound);
    const [source] = await ctx.db.select().from(sources).where(eq(sources.id, prospect.sourceId));
    return { status_code: 200, prospect: prospectView(prospect, ctx.owner, source) };
  });
