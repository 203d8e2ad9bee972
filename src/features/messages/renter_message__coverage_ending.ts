import { z } from "zod";
import { getDb } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { logger } from "../../server/log";
import { sweepToday } from "../policies/lifecycle/as-of";
import { noticeCoverageEnding } from "./notices";

/**
 * Coverage ending in 30 days (decisions §19): daily at 00:15 UTC, each live policy whose coverage
 * ends within the next 30 days gets one notice per end date (a revised end date gets a new one); a
 * repeated or made-up run writes nothing twice (the notices' dedupe key).
 */
export const renterMessageCoverageEnding = defineTask({
  name: "renter_message__coverage_ending",
  payload: z.object({}),
  crontab: "15 0 * * * ?fill=1d",
  maxAttempts: 5,
  handler: async () => {
    const queued = await noticeCoverageEnding(await getDb(), sweepToday());
    logger().info({ queued }, "coverage ending notices");
  },
});
