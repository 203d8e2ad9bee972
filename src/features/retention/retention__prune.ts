import { z } from "zod";
import { getDb } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { logger } from "../../server/log";
import { configuredWindows, pruneExpired } from "./prune";

/**
 * The daily retention prune (decisions §14 Retention; docs/decisions.md, Hardening: retention) at 03:30 UTC,
 * away from the status sweep (00:05) and billing (06:00). graphile-worker queues each scheduled run
 * once whatever the number of workers; a run missed while no worker was up is made up within a day.
 * Two runs at once (a made-up run, `retention run` by hand) delete disjoint rows.
 */
export const retentionPrune = defineTask({
  name: "retention__prune",
  // graphile-worker's crontab adds `_cron` to the payload; the prune reads the clock, not it.
  payload: z.object({}),
  crontab: "30 3 * * * ?fill=1d",
  maxAttempts: 3,
  handler: async () => {
    const started = performance.now();
    const deleted = await pruneExpired(await getDb(), configuredWindows());
    logger().info({ deleted, ms: Math.round(performance.now() - started) }, "retention prune");
  },
});
