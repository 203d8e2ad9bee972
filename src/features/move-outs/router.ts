import { router } from "../../server/trpc/init";
import { createMoveOutProcedure } from "./api/create-move-out";
import { getMoveOutProcedure } from "./api/get-move-out";

export const moveOutsRestRouter = router({
  create: createMoveOutProcedure,
  get: getMoveOutProcedure,
});
