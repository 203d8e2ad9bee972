import readline from "node:readline";

/**
 * The policies benchmark's worker process: the status sweep in a process of its own, as
 * `npm run worker` runs jobs beside a web process (WORKER=off). Connects, prints `ready`, sweeps
 * when told `go` on stdin, and prints one JSON line with what it did and how long each batch took.
 */
const { getDb, closeDb } = await import("../../src/server/db/client");
const { sweepDuePolicies } = await import("../../src/features/policies/lifecycle/sweep");
const { sweepToday } = await import("../../src/features/policies/lifecycle/as-of");
const db = await getDb();
await db.execute("select 1");
process.stdout.write("ready\n");
const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  if (line.trim() !== "go") continue;
  const batchTimes: number[] = [];
  const started = performance.now();
  const result = await sweepDuePolicies(db, sweepToday(), { actor: "system:bench", onBatch: (batch) => batchTimes.push(batch.ms) });
  const cpu = process.cpuUsage();
  process.stdout.write(
    `${JSON.stringify({
      seconds: (performance.now() - started) / 1000,
      expired: result.expired.length,
      activated: result.activated.length,
      batchTimes,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
    })}\n`,
  );
  break;
}
lines.close();
await closeDb();
