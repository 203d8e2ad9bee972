import type { TaskList } from "graphile-worker";
import { systemNoop } from "./system__noop";

/** Every task of every feature, one file each, named `<entity>__<action>` (style §5). */
export const taskList: TaskList = {
  system__noop: systemNoop,
};
