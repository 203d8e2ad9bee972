/**
 * Paces the starts of one kind of work: at most `perSecond` a second, `burst` of them at once
 * (a generic cell rate algorithm: each start books the next slot, and a start may run up to
 * `burst - 1` slots ahead of the clock). The dispatcher paces its attempts to receivers not known to
 * answer (docs/decisions.md, "Delivery engine: a dispatcher per worker", pacing new connections).
 */
export class Pacer {
  private readonly intervalMs: number;
  /** When the next start's slot is, in the clock's milliseconds. */
  private next = Number.NEGATIVE_INFINITY;

  constructor(
    perSecond: number,
    private readonly burst: number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.intervalMs = 1000 / perSecond;
  }

  /** Books a start: how many milliseconds it must wait (0: start now). */
  delayMs(): number {
    const now = this.clock();
    const slot = Math.max(this.next, now);
    this.next = slot + this.intervalMs;
    return Math.max(0, slot - now - (this.burst - 1) * this.intervalMs);
  }
}

/** Resolves after `ms`, or at once when `signal` aborts (the work then starts, and ends as its signal says). */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
