import { router } from "../../../server/trpc/init";
import { upsertOwnerProcedure } from "./upsert-owner";

export const ownersRestRouter = router({
  upsert: upsertOwnerProcedure,
});
