import readline from "node:readline";

/**
 * The retention benchmark's worker process: the prune in a process of its own, as `npm run worker`
 * runs the daily `retention__prune` beside a web process. Connects, prints `ready`, prunes with the
 * configured windows when told `go` on stdin, and prints one JSON line with its counts and batches.
 */
const { getDb, closeDb } = await import("../../src/server/db/client");
const { configuredWindows, pruneExpired } = await import("../../src/features/retention/prune");
const db = await getDb();
await db.execute("select 1");
process.stdout.write("ready\n");
const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== "go") continue;
  const batches: Array<{ table: string; rows: number; ms: number }> = [];
  const started = performance.now();
  const cpu = process.cpuUsage();
  const deleted = await pruneExpired(db, configuredWindows(), { onBatch: (batch) => batches.push(batch) });
  const used = process.cpuUsage(cpu);
  process.stdout.write(`${JSON.stringify({ seconds: (performance.now() - started) / 1000, deleted, batches, cpuSeconds: (used.user + used.system) / 1e6 })}\n`);
  break;
}
lines.close();
await closeDb();
