import { z } from "zod";
import { getDb } from "../../server/db/client";
import { defineTask } from "../../server/jobs/define-task";
import { logger } from "../../server/log";
import { pruneIdempotencyKeys } from "./idempotency";

/**
 * Deletes `Idempotency-Key`s older than 24 h (decisions §16; docs/decisions.md, "Partner developer:
 * idempotency keys"), every hour: a key expires on read already (a new request takes it over), this
 * keeps the table to about a day of keys. Two runs at once delete disjoint rows or nothing.
 */
export const idempotencyKeyPrune = defineTask({
  name: "idempotency_key__prune",
  // graphile-worker's crontab adds `_cron` to the payload; the prune reads the clock, not it.
  payload: z.object({}),
  crontab: "17 * * * * ?fill=1h",
  maxAttempts: 3,
  handler: async () => {
    const started = performance.now();
    const deleted = await pruneIdempotencyKeys(await getDb());
    logger().info({ deleted, ms: Math.round(performance.now() - started) }, "idempotency keys pruned");
  },
});
