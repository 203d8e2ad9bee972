import { router } from "../../server/trpc/init";
import { getProspectProcedure } from "./api/get-prospect";
import { upsertProspectProcedure } from "./api/upsert-prospect";

export const prospectsRestRouter = router({
  upsert: upsertProspectProcedure,
  get: getProspectProcedure,
});
