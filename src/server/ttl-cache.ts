/**
 * A small in-process cache for rows read on every request that change rarely (API clients, prospect
 * sources). An entry lives `ttlMs`, so a change made elsewhere (another process, an operator's SQL)
 * takes effect within that time; docs/decisions.md "Caches" lists what is cached and for how long.
 * Only found rows are cached: a row created a moment ago is seen at once.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string, now = Date.now()): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** `until` (epoch ms) shortens the entry's life, e.g. to a token's expiry. */
  set(key: string, value: V, until?: number, now = Date.now()): void {
    // Bounded memory: a full cache starts over rather than tracking recency.
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { value, until: Math.min(until ?? Number.POSITIVE_INFINITY, now + this.ttlMs) });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
