/** A closed-loop load: `concurrency` workers each send requests back to back until `total` are done. */
export type LoadResult = { requests: number; seconds: number; perSecond: number; p50: number; p99: number; errors: number };

export async function load(total: number, concurrency: number, send: (i: number) => Promise<Response>, ok = (r: Response) => r.ok): Promise<LoadResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        const response = await send(i);
        await response.arrayBuffer();
        latencies.push(performance.now() - t0);
        if (!ok(response)) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { requests: total, seconds, perSecond: total / seconds, p50: pct(50), p99: pct(99), errors };
}

export const fmt = (r: LoadResult) =>
  `${r.perSecond.toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   errors ${r.errors}`;
