import { describe, expect, it } from "vitest";
import { ACTIVE_MS, createFairScheduler, type SchedulerLimits } from "./fair-scheduler";

/** docs/decisions.md, "A fair Partner API"; decisions §17 "The Partner API is fair too". */

function scheduler(limits: SchedulerLimits) {
  const current = { ...limits };
  const clock = { ms: 0 };
  return {
    fair: createFairScheduler<string>(
      () => current,
      () => clock.ms,
    ),
    limits: current,
    clock,
  };
}

/** Ends one running request of `client` and returns the items that started in its place. */
const finish = (fair: ReturnType<typeof scheduler>["fair"], client: string) => fair.finish(client).map((started) => started.item);

describe("the fair scheduler of Partner API requests", () => {
  it("runs requests at once while a slot is free, keeps the last one for a client running nothing, and queues the rest per client", () => {
    const { fair } = scheduler({ slots: 3, queuePerClient: 10 });
    expect(fair.arrive("a", "a1")).toBe("run");
    expect(fair.arrive("a", "a2")).toBe("run");
    expect(fair.arrive("a", "a3")).toBe("queued");
    expect(fair.counts()).toEqual({ running: 2, waiting: 1 });
    // The third slot: a client running nothing takes it at once, but not twice.
    expect(fair.arrive("b", "b1")).toBe("run");
    expect(fair.arrive("b", "b2")).toBe("queued");
    expect(fair.counts()).toEqual({ running: 3, waiting: 2 });
    // Two slots free again before a client already running takes one.
    expect(finish(fair, "b")).toEqual(["b2"]);
    expect(finish(fair, "a")).toEqual([]);
    expect(finish(fair, "a")).toEqual(["a3"]);
    expect(fair.counts()).toEqual({ running: 2, waiting: 0 });
  });

  it("one slot: it is anybody's, first come", () => {
    const { fair } = scheduler({ slots: 1, queuePerClient: 10 });
    expect(fair.arrive("a", "a1")).toBe("run");
    expect(fair.arrive("a", "a2")).toBe("queued");
    expect(fair.arrive("b", "b1")).toBe("queued");
  });

  it("starts a second client's one request at once beside a flooder holding every slot it may", () => {
    const { fair } = scheduler({ slots: 4, queuePerClient: 200 });
    for (let i = 0; i < 100; i++) fair.arrive("flood", `f${i}`);
    expect(fair.counts()).toEqual({ running: 3, waiting: 97 });
    expect(fair.arrive("second", "s1")).toBe("run");
    expect(fair.arrive("second", "s2")).toBe("queued");
    // Its next request takes the kept slot as soon as its first ends, ahead of the flooder's 97.
    expect(finish(fair, "second")).toEqual(["s2"]);
  });

  it("holds a flooder to its fair share while another client is active, and gives it back once that client is gone", () => {
    const { fair, clock } = scheduler({ slots: 5, queuePerClient: 200 });
    for (let i = 0; i < 100; i++) fair.arrive("flood", `f${i}`);
    // Alone: every slot but the kept one.
    expect(fair.counts()).toEqual({ running: 4, waiting: 96 });
    expect(fair.arrive("second", "s1")).toBe("run");
    // Two clients active: half of the four shared slots each. The flooder's ends start nothing until it runs fewer than two.
    expect(finish(fair, "flood")).toEqual([]);
    expect(finish(fair, "flood")).toEqual([]);
    expect(finish(fair, "flood")).toEqual(["f4"]);
    // The second client's request ended: it still counts as active for a while (it sends one at a time)…
    clock.ms += 10;
    expect(finish(fair, "second")).toEqual([]);
    clock.ms += ACTIVE_MS - 20;
    expect(finish(fair, "flood")).toEqual(["f5"]);
    // …and once it has been idle that long, the flooder has the shared slots again.
    clock.ms += 20;
    expect(finish(fair, "flood")).toEqual(["f6", "f7", "f8"]);
    expect(fair.counts()).toEqual({ running: 4, waiting: 91 });
  });

  it("prefers, at equal running counts, the client served longest ago", () => {
    const { fair } = scheduler({ slots: 1, queuePerClient: 10 });
    fair.arrive("flood", "f0");
    fair.arrive("flood", "f1");
    fair.arrive("flood", "f2");
    fair.arrive("second", "s1");
    // At the end of f0 neither client runs anything: the flooder was served last.
    expect(finish(fair, "flood")).toEqual(["s1"]);
    expect(finish(fair, "second")).toEqual(["f1"]);
  });

  it("shares the slots equally among clients that all keep requests waiting", () => {
    const { fair } = scheduler({ slots: 7, queuePerClient: 1000 });
    for (let i = 0; i < 300; i++) fair.arrive("a", `a${i}`);
    for (let i = 0; i < 300; i++) fair.arrive("b", `b${i}`);
    for (let i = 0; i < 300; i++) fair.arrive("c", `c${i}`);
    // a took six of the seven, b the one kept for a client running nothing; c waits.
    const runningOrder = ["a", "a", "a", "a", "a", "a", "b"];
    const runningOf = new Map<string, number>([
      ["a", 6],
      ["b", 1],
    ]);
    const startedBy = new Map<string, number>();
    // End the oldest running request each time, whoever it belongs to.
    for (let step = 0; step < 600; step++) {
      const ended = runningOrder.shift() as string;
      runningOf.set(ended, (runningOf.get(ended) ?? 0) - 1);
      for (const { client } of fair.finish(ended)) {
        runningOrder.push(client);
        runningOf.set(client, (runningOf.get(client) ?? 0) + 1);
        startedBy.set(client, (startedBy.get(client) ?? 0) + 1);
      }
    }
    // Every client running something, six slots shared, the seventh kept.
    expect(fair.counts().running).toBe(6);
    expect([runningOf.get("a"), runningOf.get("b"), runningOf.get("c")]).toEqual([2, 2, 2]);
    // Equal shares of the starts, give or take the first rounds.
    const starts = ["a", "b", "c"].map((client) => startedBy.get(client) ?? 0);
    for (const count of starts) expect(Math.abs(count - starts[0])).toBeLessThanOrEqual(6);
  });

  it("refuses a request beyond its client's queue bound, not another client's", () => {
    const { fair } = scheduler({ slots: 1, queuePerClient: 2 });
    expect(["a1", "a2", "a3", "a4"].map((item) => fair.arrive("a", item))).toEqual(["run", "queued", "queued", "full"]);
    expect(fair.arrive("b", "b1")).toBe("queued");
    expect(fair.counts()).toEqual({ running: 1, waiting: 3 });
    // A slot freed makes room in the queue again.
    expect(finish(fair, "a")).toEqual(["b1"]);
    expect(finish(fair, "b")).toEqual(["a2"]);
    expect(fair.arrive("a", "a5")).toBe("queued");
  });

  it("with no queue, runs or refuses", () => {
    const { fair } = scheduler({ slots: 1, queuePerClient: 0 });
    expect(fair.arrive("a", "a1")).toBe("run");
    expect(fair.arrive("b", "b1")).toBe("full");
    expect(finish(fair, "a")).toEqual([]);
    expect(fair.arrive("b", "b2")).toBe("run");
  });

  it("drops a withdrawn request without running it, and never withdraws one that started", () => {
    const { fair } = scheduler({ slots: 1, queuePerClient: 10 });
    fair.arrive("a", "a1");
    fair.arrive("b", "b1");
    fair.arrive("b", "b2");
    fair.arrive("c", "c1");
    expect(fair.withdraw("b", "b1")).toBe(true);
    expect(fair.withdraw("b", "b1")).toBe(false);
    expect(fair.withdraw("a", "a1")).toBe(false);
    expect(fair.counts()).toEqual({ running: 1, waiting: 2 });
    expect(finish(fair, "a")).toEqual(["b2"]);
    expect(fair.withdraw("c", "c1")).toBe(true);
    expect(finish(fair, "b")).toEqual([]);
    expect(fair.counts()).toEqual({ running: 0, waiting: 0 });
  });

  it("applies a raised limit at the next end, a lowered one as requests end", () => {
    const { fair, limits } = scheduler({ slots: 1, queuePerClient: 10 });
    fair.arrive("a", "a1");
    for (const item of ["a2", "a3", "a4"]) fair.arrive("a", item);
    limits.slots = 3;
    // Two of the three: the third is kept for a client running nothing.
    expect(finish(fair, "a")).toEqual(["a2", "a3"]);
    limits.slots = 1;
    fair.arrive("b", "b1");
    expect(finish(fair, "a")).toEqual([]);
    expect(finish(fair, "a")).toEqual(["b1"]);
  });

  it("refuses to end a request that is not running", () => {
    const { fair } = scheduler({ slots: 1, queuePerClient: 1 });
    let thrown: unknown;
    try {
      fair.finish("nobody");
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ kind: "internal", cause: { message: "finish without a running request of nobody" } });
  });
});
