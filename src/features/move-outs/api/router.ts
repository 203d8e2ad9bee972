import { router } from "../../../server/trpc/init";
import { createMoveOutProcedure } from "./create-move-out";
import { getMoveOutProcedure } from "./get-move-out";

export const moveOutsRestRouter = router({
  create: createMoveOutProcedure,
  get: getMoveOutProcedure,
});
