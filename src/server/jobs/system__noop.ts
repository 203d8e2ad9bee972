import { z } from "zod";
import { defineTask } from "./define-task";

/** Does nothing: measures the queue's own throughput (bench) and proves the worker is alive (healthz). */
export const systemNoop = defineTask({ name: "system__noop", payload: z.object({}).passthrough(), handler: async () => {} });
