import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { DemoCredentials } from "../../src/cli/demo-seed";
import { type ExternalPostgres, startExternalPostgres } from "../../src/test/external-postgres";

/**
 * The fault scenarios' deployment (docs/operations.md "Fault scenarios"): PostgreSQL started from the
 * embedded binaries as a server of its own that the scenario stops and starts again on the same port
 * and data directory, then every process of ours pointed at it through DATABASE_URL, as an operator
 * runs them: `npm start`'s sequence for the first web process (migrate, seed the demo; WORKER=off),
 * a second web process (scripts/serve.ts) and two `npm run worker` processes.
 */
export type Proc = { name: string; child: ChildProcess; pid: number; stop: () => Promise<void> };

function spawnOne(name: string, script: string, env: Record<string, string>, logDir: string): Proc {
  const log = fs.openSync(path.join(logDir, `${name}.log`), "w");
  const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: ["ignore", log, log], env: { ...process.env, ...env } });
  return {
    name,
    child,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill("SIGKILL"), 30_000);
        child.once("exit", () => {
          clearTimeout(force);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

export type Cluster = {
  pg: ExternalPostgres;
  databaseUrl: string;
  webs: { baseUrl: string; proc: Proc }[];
  workers: Proc[];
  demo: DemoCredentials;
  dataDir: string;
  env: Record<string, string>;
  /** Starts one more `npm run worker` process (the killed one's replacement, when a scenario wants one). */
  startWorker: (name: string) => Proc;
  stop: () => Promise<void>;
};

async function untilServing(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${baseUrl}: process exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).status < 500) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${baseUrl} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/**
 * PostgreSQL on `basePort`, web processes on `basePort + 1` and `+ 2`, two workers. Staging
 * (the demo partner is seeded; webhooks may reach the local receiver), with the built app.
 */
export async function startCluster(name: string, scenarioPort: number, extraEnv: Record<string, string> = {}): Promise<Cluster> {
  // FAULTS_PORT_OFFSET moves every port of the scenario (several checkouts on one machine).
  const basePort = scenarioPort + Number(process.env.FAULTS_PORT_OFFSET ?? 0);
  const dataDir = path.resolve(".data", name);
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  const logDir = path.join(dataDir, "logs");
  fs.mkdirSync(logDir, { recursive: true });
  const pg = await startExternalPostgres(dataDir, basePort);
  const databaseUrl = pg.url;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    WORKER: "off",
    SKIP_BUILD: "1",
    LOG_LEVEL: "warn",
    NEXT_TELEMETRY_DISABLED: "1",
    WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1",
    ...extraEnv,
  };
  // A start that fails half-way stops what it started (its processes would hold the ports).
  const started: Proc[] = [];
  const spawnProcess = (...args: Parameters<typeof spawnOne>) => {
    const proc = spawnOne(...args);
    started.push(proc);
    return proc;
  };
  try {
    const webPorts = [basePort + 1, basePort + 2];
    // The first web process through `npm start`'s sequence: it migrates and seeds the demo partner.
    const first = spawnProcess("web-1", "scripts/start.ts", { ...env, PORT: String(webPorts[0]) }, logDir);
    const firstUrl = `http://127.0.0.1:${webPorts[0]}`;
    await untilServing(firstUrl, first.child, 240_000);
    const second = spawnProcess(
      "web-2",
      "scripts/serve.ts",
      { ...env, PORT: String(webPorts[1]), NEXTAUTH_URL: `http://localhost:${webPorts[1]}/console/api/auth` },
      logDir,
    );
    const secondUrl = `http://127.0.0.1:${webPorts[1]}`;
    await untilServing(secondUrl, second.child, 240_000);
    const startWorker = (workerName: string) => spawnProcess(workerName, "scripts/worker.ts", { ...env, PORT: String(basePort + 3) }, logDir);
    const workers = [startWorker("worker-1"), startWorker("worker-2")];
    // The scenarios begin once both workers hold connections, twice 3 s apart (the first may be the
    // migration's own connection).
    const deadline = Date.now() + 240_000;
    for (let check = 0; check < 2; check++) {
      while (!workers.every((worker) => connectedTo(basePort).has(worker.pid))) {
        if (workers.some((worker) => worker.child.exitCode !== null) || Date.now() > deadline) throw new Error("a worker did not start");
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      await new Promise((resolve) => setTimeout(resolve, 3_000));
    }
    const demo: DemoCredentials = JSON.parse(fs.readFileSync(path.join(dataDir, "demo.json"), "utf8"));
    const webs = [
      { baseUrl: firstUrl, proc: first },
      { baseUrl: secondUrl, proc: second },
    ];
    return {
      pg,
      databaseUrl,
      webs,
      workers,
      demo,
      dataDir,
      env,
      startWorker: (workerName) => {
        const proc = startWorker(workerName);
        workers.push(proc);
        return proc;
      },
      stop: async () => {
        await Promise.all([...workers, ...webs.map((w) => w.proc)].map((p) => p.stop()));
        await pg.stop().catch(() => {});
      },
    };
  } catch (error) {
    await Promise.all(started.map((proc) => proc.stop()));
    await pg.stop().catch(() => {});
    throw error;
  }
}

/** The processes holding an established TCP connection to `port` on this machine (`ss`). */
function connectedTo(port: number): Set<number> {
  const out = execFileSync("ss", ["-Htnp", "state", "established", "dport", `= :${port}`], { encoding: "utf8" });
  return new Set([...out.matchAll(/pid=(\d+)/g)].map((match) => Number(match[1])));
}

/** Resident memory of a process and its children (the `npm start` process runs the web process as its child), in MiB. */
export function rssMiB(pid: number): number {
  try {
    const out = execFileSync("ps", ["-o", "rss=", "--pid", String(pid), "--ppid", String(pid)], { encoding: "utf8" });
    return out
      .split("\n")
      .map((line) => Number(line.trim()))
      .filter((kb) => kb > 0)
      .reduce((sum, kb) => sum + kb / 1024, 0);
  } catch {
    return 0;
  }
}
