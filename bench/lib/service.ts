import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { DemoCredentials } from "../../src/cli/demo-seed";

export type RunningService = { baseUrl: string; demo: DemoCredentials; stop: () => Promise<void> };

/**
 * Starts the built service exactly as `npm start` does, on its own port and fresh data directory.
 * With `worker: "process"` the web process runs no jobs (WORKER=off) and one `npm run worker`
 * process runs them, the README's scale-out shape: the web process's one thread then serves only
 * HTTP, as the in-process baselines' thread does only their transactions. With `worker: "none"` the
 * web process runs no jobs and no worker is started (the caller starts one when it wants). `cwd`
 * runs another checkout's service (a baseline commit's worktree, bench/isolation.bench.ts).
 */
export async function startService(
  port: number,
  name: string,
  env: Record<string, string> = {},
  options: { worker: "inline" | "process" | "none"; cwd?: string } = { worker: "inline" },
): Promise<RunningService> {
  const cwd = options.cwd ?? process.cwd();
  const dataDir = path.join(cwd, ".data", name);
  fs.rmSync(dataDir, { recursive: true, force: true });
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd,
    // BENCH_SERVICE_LOG=path keeps the service's JSON log (worker errors included) for a look afterwards.
    stdio: ["ignore", process.env.BENCH_SERVICE_LOG ? fs.openSync(process.env.BENCH_SERVICE_LOG, "w") : "ignore", "inherit"],
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "info", ...env, ...(options.worker === "inline" ? {} : { WORKER: "off" }) },
  });
  const baseUrl = `http://localhost:${port}`;
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok && fs.existsSync(path.join(dataDir, "demo.json"))) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error("service did not start");
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  const demo: DemoCredentials = JSON.parse(fs.readFileSync(path.join(dataDir, "demo.json"), "utf8"));
  const worker =
    options.worker === "process"
      ? spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
          cwd,
          stdio: ["ignore", "ignore", "inherit"],
          env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "warn", ...env },
        })
      : undefined;
  const stopped = (proc: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null) return resolve();
      proc.once("exit", () => resolve());
      proc.kill("SIGINT");
    });
  return {
    baseUrl,
    demo,
    stop: async () => {
      if (worker) await stopped(worker);
      await stopped(child);
    },
  };
}

export async function partnerToken(service: RunningService): Promise<string> {
  const response = await fetch(`${service.baseUrl}/api/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: service.demo.client_id,
      client_secret: service.demo.client_secret,
      audience: service.demo.audience,
    }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}
