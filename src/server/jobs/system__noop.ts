import type { Task } from "graphile-worker";

/** Does nothing: measures the queue's own throughput (bench) and proves the worker is alive (healthz). */
export const systemNoop: Task = async () => {};
