import { z } from "zod";
import { getDb } from "../../../server/db/client";
import { defineTask } from "../../../server/jobs/define-task";
import { logger } from "../../../server/log";
import { sweepToday } from "./as-of";
import { sweepDuePolicies } from "./sweep";

/**
 * The daily status sweep (decisions §11 Policy status; docs/policies.md): at 00:05 UTC every
 * policy due that day expires or starts, with its events. A day missed while no worker ran is made
 * up within a day (`?fill=1d`); the sweep is cumulative (everything due up to today), so a
 * made-up, repeated or concurrent run changes nothing twice.
 */
export const policyExpireDue = defineTask({
  name: "policy__expire_due",
  // graphile-worker's crontab adds `_cron` to the payload; the sweep reads the clock, not it.
  payload: z.object({}),
  crontab: "5 0 * * * ?fill=1d",
  maxAttempts: 5,
  handler: async () => {
    const asOf = sweepToday();
    const result = await sweepDuePolicies(await getDb(), asOf, { actor: "system:policy__expire_due" });
    logger().info({ asOf, expired: result.expired.length, activated: result.activated.length }, "policy status sweep");
  },
});
