import { pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * One row per running worker process (decisions §14, Health): written every few seconds while its
 * runner runs, deleted when it stops. Readiness asks for the newest beat, never counts jobs.
 * graphile-worker's own locks are no heartbeat: an idle worker holds none.
 */
export const workerHeartbeats = pgTable("worker_heartbeats", {
  /** The running runner's graphile-worker pool id (the `locked_by` of its jobs); random before one runs. */
  id: text("id").primaryKey(),
  /** `inline` (inside a web process) or `process` (`npm run worker`). */
  mode: text("mode").notNull(),
  startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
  beatAt: timestamp("beat_at", { withTimezone: true }).notNull().defaultNow(),
});
