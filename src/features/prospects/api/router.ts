import { router } from "../../../server/trpc/init";
import { getProspectProcedure } from "./get-prospect";
import { upsertProspectProcedure } from "./upsert-prospect";

export const prospectsRestRouter = router({
  upsert: upsertProspectProcedure,
  get: getProspectProcedure,
});
