import { getConfig } from "../../../server/config";
import { errors } from "../../../server/errors";
import { isoDay } from "../coverage";
import { LIFECYCLE_MESSAGES as M } from "../messages";

/** Today as the sweep counts days: the UTC date (docs/policies.md, Time zone). */
export function sweepToday(now = new Date()): string {
  return isoDay(now);
}

/**
 * The day a manual sweep runs as of (decisions §4 `policy expire-due [--as-of YYYY-MM-DD]`): today
 * when none is given; a real calendar date; another day than today only outside production, where
 * advancing or holding back the calendar would change real policies on a day that is not theirs.
 */
export function resolveAsOf(asOf: string | undefined, now = new Date()): string {
  const today = sweepToday(now);
  if (asOf === undefined) return today;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(`${asOf}T00:00:00Z`)) || isoDay(new Date(`${asOf}T00:00:00Z`)) !== asOf) {
    throw errors.badRequest(M.badAsOf);
  }
  if (asOf !== today && getConfig().appEnv === "production") throw errors.forbidden(M.asOfInProduction(today));
  return asOf;
}
