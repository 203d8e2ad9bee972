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

/**
 * The rest of an endpoint's rate window spread evenly across it (docs/decisions.md, "Delivery engine:
 * a dispatcher per worker", a backlog beyond its window): what the window still allowed when the pace
 * was set (its count then, `counted`) starts between `from` and `until` (ms of the clock the caller
 * passes), the first at once and then one per `(until - from) / remaining`. The dispatcher paces an
 * endpoint so only while more of its deliveries are due before the window ends than the window still
 * allows: they could not all go in this window anyway, so the spreading delays none of them past the
 * window's end, and the receiver gets a steady stream instead of the window's whole allowance in its
 * first seconds. Starts are counted from this process's claims (`take`) and from the window's count
 * each claim returns (`observe`, every process's claims): several processes pacing one endpoint share
 * one pace, each running ahead of it by at most what it took since its last claim.
 */
export class WindowPace {
  private readonly remaining: number;
  private readonly intervalMs: number;
  private taken = 0;

  constructor(
    private readonly from: number,
    readonly until: number,
    private readonly counted: number,
    limit: number,
  ) {
    this.remaining = Math.max(0, limit - counted);
    this.intervalMs = (until - from) / Math.max(1, this.remaining);
  }

  /** Starts allowed at `at` and not taken yet (0 once the window has ended: the next one is looked at anew). */
  allowed(at: number): number {
    if (at >= this.until || this.remaining === 0) return 0;
    const due = Math.min(this.remaining, Math.floor(Math.max(0, at - this.from) / this.intervalMs) + 1);
    return Math.max(0, due - this.taken);
  }

  /** Counts starts this process made. */
  take(n: number): void {
    this.taken += n;
  }

  /** The window's count as a claim returned it: every process's starts since the pace was set. */
  observe(windowCount: number): void {
    this.taken = Math.max(this.taken, windowCount - this.counted);
  }

  /** When the next start is allowed (ms of the clock), or `until` when the window's allowance is spent. */
  nextAt(): number {
    if (this.taken >= this.remaining) return this.until;
    return this.from + this.taken * this.intervalMs;
  }
}
