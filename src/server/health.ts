import { getSql } from "./db/client";
import { workerState } from "./jobs/worker";

/** Database reachability, the worker's state and the queue's depth (issue: observability). */
export async function health() {
  const started = performance.now();
  try {
    const sql = await getSql();
    const [queue] = await sql<{ ready: number; locked: number }[]>`
      select count(*) filter (where locked_at is null and run_at <= now())::int as ready,
             count(*) filter (where locked_at is not null)::int as locked
      from graphile_worker.jobs`;
    const worker = workerState();
    return {
      status: "ok" as const,
      database: { status: "ok" as const, latency_ms: Math.round(performance.now() - started) },
      worker: { mode: worker.mode, running: worker.running, started_at: worker.startedAt ?? null },
      jobs: queue,
    };
  } catch {
    return { status: "degraded" as const, database: { status: "unreachable" as const }, worker: workerState() };
  }
}
