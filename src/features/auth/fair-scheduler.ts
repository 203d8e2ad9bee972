/**
 * Who runs next when a process's Partner API slots are all taken (decisions §17 "The Partner API is
 * fair too"; docs/decisions.md, "A fair Partner API"). Pure: no timers, no I/O; the process's gate
 * (`request-slots.ts`) asks it and acts on its answers.
 *
 * - At most `slots` requests run at once, and one of them (when there are two or more) is kept for
 *   clients running nothing: a client already running a request takes a slot only while two are
 *   free. So a client that comes with one request never waits behind a flooder's requests for a slot
 *   to end, whatever the flooder keeps in flight (as the delivery engine keeps attempts for endpoints
 *   holding none).
 * - Each client runs at most its fair share: the slots but the kept one, divided among the clients
 *   active now (running or waiting requests, or one ended less than `ACTIVE_MS` ago, so a client
 *   sending one request at a time counts between its requests), at least one each. A flooder alone
 *   runs all but the kept slot; beside a second client, half of them. On a CPU-bound process a
 *   request's time is its work times the requests running beside it: this is what keeps the second
 *   client's time near its time alone.
 * - A request that may take a free slot runs at once; otherwise it waits in its client's own
 *   first-in-first-out queue, at most `queuePerClient` of them, beyond which it is refused (`full`).
 * - A freed slot goes to a client with waiting requests chosen fairly: the one running the fewest
 *   requests, and among those the one served longest ago (a client with nothing running or served
 *   for a while before one just served). So a client with one request waiting takes the next free
 *   slot ahead of a flooder's hundredth, and clients that all keep requests waiting converge to an
 *   equal share of the slots: each client runs at most its fair share while others wait.
 */

import { errors } from "../../server/errors";

export type SchedulerLimits = {
  /** Requests running at once, in all. */
  slots: number;
  /** Requests one client may have waiting; beyond them a request is refused. */
  queuePerClient: number;
};

export type Arrival = "run" | "queued" | "full";

/** A request that now runs, taken from its client's queue. */
export type Started<T> = { client: string; item: T };

export type FairScheduler<T> = {
  /** A request of `client` arrives: it runs now (its slot taken), waits, or is refused. */
  arrive(client: string, item: T): Arrival;
  /** A running request of `client` ended: its slot (and any slot a raised limit added) goes to the requests returned, which now run. */
  finish(client: string): Started<T>[];
  /** A waiting request leaves without running (its caller went away, or it waited too long); false when it is not waiting. */
  withdraw(client: string, item: T): boolean;
  /** Requests running and waiting now, in all. */
  counts(): { running: number; waiting: number };
};

/** How long a client that had a request end still counts among the active clients. */
export const ACTIVE_MS = 1_000;

type Lane<T> = {
  client: string;
  running: number;
  waiting: T[];
  /** When a request of this client last arrived or ended (ms of `now`). */
  activeAt: number;
  /** When this client last had a request started (a sequence number; 0: never while the lane lived). */
  servedAt: number;
};

/** `limits` is read on every call, so a changed configuration applies from the next request; `now` in ms (tests pass their own clock). */
export function createFairScheduler<T>(limits: () => SchedulerLimits, now: () => number = () => performance.now()): FairScheduler<T> {
  const lanes = new Map<string, Lane<T>>();
  /** Lanes with requests waiting. */
  const queued = new Set<Lane<T>>();
  let running = 0;
  let waiting = 0;
  let sequence = 0;

  const laneOf = (client: string): Lane<T> => {
    let lane = lanes.get(client);
    if (!lane) {
      lane = { client, running: 0, waiting: [], activeAt: now(), servedAt: 0 };
      lanes.set(client, lane);
    }
    return lane;
  };

  /**
   * The clients active now; a lane with nothing running or waiting is forgotten `ACTIVE_MS` after its
   * last request (a client that comes back later is new).
   */
  const activeClients = (at: number): number => {
    let active = 0;
    for (const lane of lanes.values()) {
      if (lane.running > 0 || lane.waiting.length > 0 || at - lane.activeAt < ACTIVE_MS) active++;
      else lanes.delete(lane.client);
    }
    return active;
  };

  const start = (lane: Lane<T>) => {
    lane.running++;
    running++;
    lane.servedAt = ++sequence;
  };

  /**
   * Whether a request of `lane` may run now: a slot is free, and, when its client already runs one,
   * it is not the slot kept for clients running nothing and the client is below its fair share.
   */
  const mayStart = (lane: Lane<T>, slots: number, active: number) => {
    if (running >= slots) return false;
    if (lane.running === 0) return true;
    const shared = slots - (slots > 1 ? 1 : 0);
    return running < shared && lane.running < Math.max(1, Math.floor(shared / Math.max(1, active)));
  };

  /** The waiting lane that may start running the fewest requests, served longest ago among those. */
  const nextLane = (slots: number, active: number): Lane<T> | undefined => {
    let best: Lane<T> | undefined;
    for (const lane of queued) {
      if (!mayStart(lane, slots, active)) continue;
      if (!best || lane.running < best.running || (lane.running === best.running && lane.servedAt < best.servedAt)) best = lane;
    }
    return best;
  };

  return {
    arrive(client, item) {
      const { slots, queuePerClient } = limits();
      const at = now();
      const lane = laneOf(client);
      lane.activeAt = at;
      const active = activeClients(at);
      // Its client's earlier requests first. No other client's waiting request may take this slot:
      // every one that could was started when a slot last freed.
      if (lane.waiting.length === 0 && mayStart(lane, slots, active)) {
        start(lane);
        return "run";
      }
      if (lane.waiting.length >= queuePerClient) return "full";
      lane.waiting.push(item);
      queued.add(lane);
      waiting++;
      return "queued";
    },
    finish(client) {
      const lane = lanes.get(client);
      // A bug of the gate (an end counted twice): a 500, never a slot freed that was not taken.
      if (!lane || lane.running === 0) throw errors.internal(new Error(`finish without a running request of ${client}`));
      lane.running--;
      running--;
      const at = now();
      lane.activeAt = at;
      const active = activeClients(at);
      const started: Started<T>[] = [];
      // More than one when the limit was raised since: a lowered one frees no slot until enough end.
      const { slots } = limits();
      for (let next = nextLane(slots, active); next; next = nextLane(slots, active)) {
        const item = next.waiting.shift() as T;
        waiting--;
        if (next.waiting.length === 0) queued.delete(next);
        start(next);
        started.push({ client: next.client, item });
      }
      return started;
    },
    withdraw(client, item) {
      const lane = lanes.get(client);
      const at = lane ? lane.waiting.indexOf(item) : -1;
      if (!lane || at === -1) return false;
      lane.waiting.splice(at, 1);
      waiting--;
      if (lane.waiting.length === 0) queued.delete(lane);
      return true;
    },
    counts: () => ({ running, waiting }),
  };
}
