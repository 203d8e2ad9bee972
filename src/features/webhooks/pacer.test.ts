import { describe, expect, it } from "vitest";
import { Pacer, pause, WindowPace } from "./pacer";

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

describe("WindowPace", () => {
  it("spreads what a window still allows across its rest: one at once, then one per interval", () => {
    // 600 starts left over the 60 s to the window's end: one each 100 ms.
    const pace = new WindowPace(1_000, 61_000, 400, 1_000);
    expect(pace.allowed(1_000)).toBe(1);
    pace.take(1);
    expect(pace.allowed(1_050)).toBe(0);
    expect(pace.nextAt()).toBe(1_100);
    expect(pace.allowed(1_100)).toBe(1);
    // Unused allowance accrues: a second later ten more may start.
    expect(pace.allowed(2_099)).toBe(10);
    pace.take(10);
    expect(pace.allowed(2_099)).toBe(0);
    expect(pace.nextAt()).toBe(2_100);
  });

  it("never allows more than the window's rest, and nothing once the window has ended", () => {
    const pace = new WindowPace(0, 60_000, 997, 1_000);
    expect(pace.allowed(59_999)).toBe(3);
    pace.take(3);
    expect(pace.allowed(59_999)).toBe(0);
    expect(pace.nextAt()).toBe(60_000);
    expect(new WindowPace(0, 60_000, 997, 1_000).allowed(60_000)).toBe(0);
    expect(new WindowPace(0, 60_000, 1_000, 1_000).allowed(0)).toBe(0);
  });
});

describe("WindowPace shared by processes", () => {
  it("counts the starts of every process from the window's count a claim returns", () => {
    // 600 left when set (400 counted), one each 100 ms.
    const pace = new WindowPace(0, 60_000, 400, 1_000);
    expect(pace.allowed(1_000)).toBe(11);
    pace.take(2);
    // This process's claim of 2 came back with the window at 410: other processes started 8.
    pace.observe(410);
    expect(pace.allowed(1_000)).toBe(1);
    expect(pace.nextAt()).toBe(1_000);
    // A count older than this process's own starts takes nothing back.
    pace.take(1);
    pace.observe(405);
    expect(pace.allowed(1_000)).toBe(0);
    expect(pace.nextAt()).toBe(1_100);
  });
});
