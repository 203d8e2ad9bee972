import { getConfig } from "../../server/config";

/** decisions §13: the demo page, its routes and its receiver exist in staging only; production answers 404. */
export function isDemoEnabled(): boolean {
  return getConfig().appEnv !== "production";
}
