import { Logger } from "graphile-worker";
import { logger } from "../log";

/** graphile-worker logs a line per job by default, which costs throughput: keep warnings and errors. */
export const quietWorkerLogger = new Logger(() => (level, message, meta) => {
  if (level === "error") logger().error({ worker: meta }, message);
  else if (level === "warning") logger().warn({ worker: meta }, message);
});
