import { logger } from "./log";

/**
 * The process's stop (decisions §14, Shutdown; docs/decisions.md "Health and shutdown"). The first
 * SIGTERM or SIGINT marks the process stopping (readiness answers 503 at once) and runs the steps
 * registered here phase by phase: `servers` (stop accepting, let requests in flight finish),
 * `worker` (stop taking jobs, let running ones finish or hand them back), `database` (close the
 * pool; an embedded server this process started stops with it), `telemetry` (flush the spans of all
 * that, when tracing is on). A second signal exits at once, unless it is the first one delivered
 * again (docs/decisions.md "Signals: one group signal is one stop").
 *
 * Next.js bundles its pages apart from the modules scripts/serve.ts imports, so the state lives on
 * globalThis: every copy of this module registers into, and reads, the same one.
 */
export type StopPhase = "servers" | "worker" | "database" | "telemetry";
const PHASES: readonly StopPhase[] = ["servers", "worker", "database", "telemetry"];

type Lifecycle = {
  stopping: boolean;
  installed: boolean;
  classify?: (signal: NodeJS.Signals) => StopSignal;
  steps: { phase: StopPhase; step: () => Promise<void> }[];
};
const slot = globalThis as unknown as { [key: symbol]: Lifecycle };
const KEY = Symbol.for("pis.lifecycle");
slot[KEY] ??= { stopping: false, installed: false, steps: [] };
const shared = slot[KEY];

/**
 * How long after the first stop signal the same signal again is that stop delivered twice, not a
 * second one. `kill -TERM -- -<pgid>` (systemd's stop) and a terminal's Ctrl-C signal every process
 * of the group, and `npm` forwards the one it got to its script as well: the script's process gets
 * the signal twice within milliseconds (docs/decisions.md "Signals: one group signal is one stop").
 */
export const REPEATED_SIGNAL_MS = 1000;

/** The first stop signal, the same one delivered again within REPEATED_SIGNAL_MS, or a second stop (it forces). */
export type StopSignal = "first" | "repeated" | "second";

/** Classifies the stop signals one process receives (each call keeps its own history). */
export function stopSignalClassifier(now: () => number = () => performance.now()): (signal: NodeJS.Signals) => StopSignal {
  let first: { signal: NodeJS.Signals; at: number } | undefined;
  return (signal) => {
    if (!first) {
      first = { signal, at: now() };
      return "first";
    }
    return signal === first.signal && now() - first.at < REPEATED_SIGNAL_MS ? "repeated" : "second";
  };
}

/** True from the first stop signal on. */
export function isStopping(): boolean {
  return shared.stopping;
}

/** Runs `step` in its phase when the process stops (and catches SIGTERM/SIGINT from then on). */
export function onStop(phase: StopPhase, step: () => Promise<void>): void {
  shared.steps.push({ phase, step });
  if (shared.installed) return;
  shared.installed = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, stopOn);
}

function stopOn(signal: NodeJS.Signals): void {
  shared.classify ??= stopSignalClassifier();
  const kind = shared.classify(signal);
  if (kind === "repeated") {
    logger().info({ signal }, "stop signal received again (the process group's and its parent's): still stopping gracefully");
    return;
  }
  if (kind === "second") {
    // The second signal: whatever is still running is abandoned (its jobs unlock after the stale-lock time).
    logger().warn({ signal }, "stop forced");
    process.exit(1);
  }
  shared.stopping = true;
  logger().info({ signal }, "shutting down");
  void stopAll().then(() => process.exit(0));
}

async function stopAll(): Promise<void> {
  for (const phase of PHASES) {
    const steps = shared.steps.filter((entry) => entry.phase === phase);
    const results = await Promise.allSettled(steps.map((entry) => entry.step()));
    for (const result of results) if (result.status === "rejected") logger().error({ err: result.reason, phase }, "shutdown step failed");
  }
}
