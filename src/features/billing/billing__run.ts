import { z } from "zod";
import { getConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { logger } from "../../server/log";
import { billingDate } from "./levers";
import { runBilling } from "./run";

/**
 * The daily billing cron (decisions §11 Billing): charges the months due by today. Daily at 06:00
 * UTC; a day missed while no worker ran is made up (`fill`), and since a run charges every month
 * due and not yet charged, a late or repeated run charges nothing twice. The crontab's own payload
 * (`_cron`) is ignored: a made-up run bills as of today too.
 */
export const billingRun = defineTask({
  name: "billing__run",
  payload: z.object({}),
  maxAttempts: 5,
  crontab: "0 6 * * * ?fill=1d",
  handler: async () => {
    const run = await runBilling(await getDb(), billingDate(getConfig(), undefined));
    logger().info({ asOf: run.as_of, charged: run.charged.length, failed: run.failed.length }, "billing run");
  },
});
