import type { TaskList } from "graphile-worker";
import { ingestionEventApply } from "../../features/ingestion/ingestion_event__apply";
import { prospectCheckEligibility } from "../../features/prospects/prospect__check_eligibility";
import { systemNoop } from "./system__noop";

/** Every task of every feature, one file each, named `<entity>__<action>` (style §5). */
export const taskList: TaskList = {
  ingestion_event__apply: ingestionEventApply,
  prospect__check_eligibility: prospectCheckEligibility,
  system__noop: systemNoop,
};
