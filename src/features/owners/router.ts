import { router } from "../../server/trpc/init";
import { upsertOwnerProcedure } from "./api/upsert-owner";

export const ownersRestRouter = router({
  upsert: upsertOwnerProcedure,
});
