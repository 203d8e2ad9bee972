import { describe, expect, it } from "vitest";
import { Pacer, pause } from "./pacer";

describe("Pacer", () => {
  it("lets a burst start at once, then one start per interval", () => {
    let now = 1_000;
    const pacer = new Pacer(100, 10, () => now);
    const delays = Array.from({ length: 15 }, () => pacer.delayMs());
    expect(delays.slice(0, 10)).toEqual(Array(10).fill(0));
    expect(delays.slice(10)).toEqual([10, 20, 30, 40, 50]);
    // 100 starts at once are spread over the next 0.9 s.
    now = 10_000;
    const hundred = Array.from({ length: 100 }, () => pacer.delayMs());
    expect(hundred.filter((ms) => ms === 0)).toHaveLength(10);
    expect(Math.max(...hundred)).toBe(900);
  });

  it("refills with time: starts at its rate never wait", () => {
    let now = 0;
    const pacer = new Pacer(100, 10, () => now);
    for (let i = 0; i < 50; i++) {
      expect(pacer.delayMs()).toBe(0);
      now += 10;
    }
    // After a quiet second the whole burst is back.
    now += 1_000;
    expect(Array.from({ length: 10 }, () => pacer.delayMs())).toEqual(Array(10).fill(0));
    expect(pacer.delayMs()).toBe(10);
  });
});

describe("pause", () => {
  it("waits its time, and ends at once when its signal aborts", async () => {
    const started = performance.now();
    await pause(50, new AbortController().signal);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    const stop = new AbortController();
    const cut = performance.now();
    const waiting = pause(10_000, stop.signal);
    stop.abort();
    await waiting;
    expect(performance.now() - cut).toBeLessThan(1_000);
    const aborted = performance.now();
    await pause(10_000, stop.signal);
    expect(performance.now() - aborted).toBeLessThan(1_000);
  });
});
