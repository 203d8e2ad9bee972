import { observeApiQueueRefusal, observeApiQueueWait, observeApiSlots } from "../../server/observability/metrics";
import { createFairScheduler } from "./fair-scheduler";

/**
 * A web process's Partner API slots (decisions §17 "The Partner API is fair too"; docs/decisions.md,
 * "A fair Partner API"): at most `slots` requests run at once, the others wait in their client's
 * queue and are started in the fair order of `fair-scheduler.ts`. This module adds what the pure
 * scheduler leaves out: the promise a waiting request awaits, the bound on its wait, dropping it
 * when its caller goes away, and the metrics.
 */

export type SlotLimits = {
  /** Requests running at once; 0: no limit (nothing waits). */
  slots: number;
  queuePerClient: number;
  maxWaitMs: number;
};

/** A request's turn: it runs and must `release` its slot once done, or it was refused, or its caller left while it waited. */
export type SlotOutcome = { kind: "run"; release: () => void } | { kind: "full" | "timeout" | "gone" };

/** Subscribes to the caller going away (its connection closed before the answer); returns the unsubscription. */
export type WhenGone = (listener: () => void) => () => void;

type Ticket = { resolve: (outcome: SlotOutcome) => void; queuedAt: number; timer?: NodeJS.Timeout; unwatch?: () => void };

export type RequestSlots = {
  /** Waits for a slot for a request of `client`; the answer comes at once unless it has to wait. */
  acquire(client: string, whenGone?: WhenGone): Promise<SlotOutcome>;
  /** Requests running and waiting now. */
  counts(): { running: number; waiting: number };
};

const UNLIMITED: SlotOutcome = { kind: "run", release: () => {} };

/** `limits` is read on every request (a changed configuration applies from the next). */
export function createRequestSlots(limits: () => SlotLimits): RequestSlots {
  const fair = createFairScheduler<Ticket>(limits);

  function releaseOf(client: string): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      observeApiSlots({ running: -1 });
      for (const started of fair.finish(client)) begin(started.client, started.item);
    };
  }

  function begin(client: string, ticket: Ticket): void {
    clearTimeout(ticket.timer);
    ticket.unwatch?.();
    observeApiSlots({ running: 1, queued: -1 });
    observeApiQueueWait((performance.now() - ticket.queuedAt) / 1000);
    ticket.resolve({ kind: "run", release: releaseOf(client) });
  }

  /** A waiting request leaves its queue unrun, if it is still there (not started meanwhile). */
  function leave(client: string, ticket: Ticket, kind: "timeout" | "gone"): void {
    if (!fair.withdraw(client, ticket)) return;
    clearTimeout(ticket.timer);
    ticket.unwatch?.();
    observeApiSlots({ queued: -1 });
    if (kind === "timeout") observeApiQueueRefusal("timeout");
    ticket.resolve({ kind });
  }

  return {
    acquire(client, whenGone) {
      const { slots, maxWaitMs } = limits();
      if (slots === 0) return Promise.resolve(UNLIMITED);
      let resolve: Ticket["resolve"] = () => {};
      const outcome = new Promise<SlotOutcome>((settle) => {
        resolve = settle;
      });
      const ticket: Ticket = { resolve, queuedAt: performance.now() };
      const arrival = fair.arrive(client, ticket);
      if (arrival === "run") {
        observeApiSlots({ running: 1 });
        observeApiQueueWait(0);
        return Promise.resolve({ kind: "run", release: releaseOf(client) });
      }
      if (arrival === "full") {
        observeApiQueueRefusal("full");
        return Promise.resolve({ kind: "full" });
      }
      observeApiSlots({ queued: 1 });
      ticket.timer = setTimeout(() => leave(client, ticket, "timeout"), maxWaitMs);
      // A caller already gone is told at once: `leave` runs before the subscription returns.
      ticket.unwatch = whenGone?.(() => leave(client, ticket, "gone"));
      return outcome;
    },
    counts: () => fair.counts(),
  };
}
