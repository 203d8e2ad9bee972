import type { TaskList } from "graphile-worker";
import { prospectCheckEligibility } from "../../features/prospects/prospect__check_eligibility";
import { systemNoop } from "./system__noop";

/** Every task of every feature, one file each, named `<entity>__<action>` (style §5). */
export const taskList: TaskList = {
  prospect__check_eligibility: prospectCheckEligibility,
  system__noop: systemNoop,
};
