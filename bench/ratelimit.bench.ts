import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fmt, type LoadResult, load } from "./lib/load";

/**
 * `npm run bench -- ratelimit` (decisions §17 "The Partner API is fair too"; docs/decisions.md,
 * "Partner developer: rate limits"). Its own database; the web process's door (src/test/door-process.ts:
 * the gateways as `scripts/serve.ts` serves them, without Next.js) in a process of its own, restarted
 * with each setting. Prints:
 * - the prospect upsert with the limit off (`API_RATE_LIMIT_PER_SECOND=0`) and on (a limit no client
 *   reaches, so every request is counted and none refused), in ABBA order; target: ≤ 5 % slower;
 * - a second client's upserts, p99 alone and beside a client sending at concurrency 100 at the
 *   default limit (100/s); target: ≤ 2×.
 */
const UPSERTS = Number(process.env.BENCH_RATELIMIT_UPSERTS ?? 600);
const CONCURRENCY = 16;
const ISOLATION_UPSERTS = Number(process.env.BENCH_RATELIMIT_ISOLATION ?? 300);

export async function ratelimitBench(): Promise<{ costRatio: number; isolationRatio: number }> {
  const dataDir = path.join(".data", "bench-ratelimit");
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.env.DATA_DIR = dataDir;
  process.env.APP_ENV = "staging";
  process.env.LOG_LEVEL ??= "warn";
  // The setup goes through this process's own door: not counted.
  process.env.API_RATE_LIMIT_PER_SECOND = "0";
  const { closeDb, databaseUrl } = await import("../src/server/db/client");
  const { migrateDatabase } = await import("../src/server/db/migrate");
  const { prospectPartner, completeProspect } = await import("../src/features/prospects/prospect-test-helpers");
  const { newClient, newOwner } = await import("../src/test/factories");
  const url = await databaseUrl();
  await migrateDatabase(url);
  const partner = await prospectPartner();
  const hammer = await newClient();
  const hammerOwner = await newOwner(hammer);
  const hammerToken = await hammer.token();
  let door: { port: string; child: ChildProcess } | undefined;
  const env = (limit: string) => ({ ...process.env, DATABASE_URL: url, DATA_DIR: dataDir, API_RATE_LIMIT_PER_SECOND: limit, WORKER: "off", LOG_LEVEL: "warn" });
  const restart = async (limit: string) => {
    await stop(door?.child);
    door = await startDoor(env(limit));
  };
  let n = 0;
  const upsert = (i: number) =>
    fetch(`http://127.0.0.1:${door?.port}${partner.base}/prospects`, {
      method: "POST",
      headers: { authorization: `Bearer ${partner.token}`, "content-type": "application/json" },
      body: JSON.stringify({ prospect: completeProspect(partner.source, `b-${n}-${i}`) }),
    });
  const phase = async (total: number, concurrency: number) => {
    n++;
    return load(total, concurrency, upsert);
  };
  let costRatio = Number.NaN;
  const isolation: number[] = [];
  try {
    if (process.env.BENCH_RATELIMIT_PHASES !== "isolation") costRatio = await cost();
    // The default limit, and one below what this machine serves (so that the limit binds).
    for (const limit of (process.env.BENCH_RATELIMIT_LIMITS ?? "100,10").split(",")) isolation.push(await isolationAt(limit));
    return { costRatio, isolationRatio: isolation[0] };
  } finally {
    await stop(door?.child);
    await closeDb();
  }

  async function cost(): Promise<number> {
    process.stdout.write("\nratelimit: the prospect upsert with the request limit off and on (ABBA)\n");
    const results: Record<"off" | "on", LoadResult[]> = { off: [], on: [] };
    for (const setting of ["off", "on", "on", "off"] as const) {
      await restart(setting === "off" ? "0" : "1000000");
      await phase(100, CONCURRENCY); // warm-up, unmeasured
      const result = await phase(UPSERTS, CONCURRENCY);
      results[setting].push(result);
      process.stdout.write(`  limit ${setting.padEnd(3)} ${fmt(result)}\n`);
    }
    const rate = (list: LoadResult[]) => list.reduce((sum, r) => sum + r.perSecond, 0) / list.length;
    const costRatio = 1 - rate(results.on) / rate(results.off);
    process.stdout.write(
      `  with the limit: ${(costRatio * 100).toFixed(1)} % slower (${rate(results.on).toFixed(1)} against ${rate(results.off).toFixed(1)} req/s) ${costRatio <= 0.05 ? "PASS" : "FAIL"} (target ≤ 5 %)\n`,
    );
    return costRatio;
  }

  async function isolationAt(limit: string): Promise<number> {
    process.stdout.write(`\nratelimit: a second client's upsert p99, alone and beside a client at concurrency 100 (limit ${limit}/s)\n`);
    await restart(limit);
    await phase(50, 4);
    const alone = await phase(ISOLATION_UPSERTS, 4);
    process.stdout.write(`  alone   ${fmt(alone)}\n`);
    let hammering = true;
    const counts = { admitted: 0, refused: 0 };
    const hammerLoop = Promise.all(
      Array.from({ length: 100 }, async () => {
        while (hammering) {
          const response = await fetch(`http://127.0.0.1:${door?.port}/api/partners/${hammerOwner.slug}/webhooks/endpoints`, {
            headers: { authorization: `Bearer ${hammerToken}` },
          });
          await response.arrayBuffer();
          if (response.status === 429) counts.refused++;
          else counts.admitted++;
        }
      }),
    );
    const beside = await phase(ISOLATION_UPSERTS, 4);
    hammering = false;
    await hammerLoop;
    const isolationRatio = beside.p99 / alone.p99;
    process.stdout.write(`  beside  ${fmt(beside)}   (the other client: ${counts.admitted} admitted, ${counts.refused} refused with 429)\n`);
    process.stdout.write(`  p99 beside / alone: ${isolationRatio.toFixed(2)}× ${isolationRatio <= 2 ? "PASS" : "FAIL"} (target ≤ 2×)\n`);
    return isolationRatio;
  }
}

async function startDoor(env: NodeJS.ProcessEnv): Promise<{ port: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/test/door-process.ts"], { stdio: ["ignore", "pipe", "inherit"], env });
  const port = await new Promise<string>((resolve, reject) => {
    let output = "";
    child.stdout?.on("data", (chunk) => {
      output += chunk;
      const match = /listening (\d+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`door process exited (${code})`)));
  });
  return { port, child };
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}
