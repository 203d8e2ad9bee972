import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import { E2E_DATA_DIR } from "../../playwright.config";

export type WebProcess = { url: string; pid: number; stop: () => Promise<void> };

/**
 * A second web process of the built app (`scripts/serve.ts`, the front server before Next.js, as
 * `npm start` runs it) beside the one Playwright started, on the e2e database (found running under
 * the same data directory) with no worker. For tests that need the process itself (its memory) or
 * another environment (an HTTPS `PUBLIC_BASE_URL`). Stopped by the pid it was started with.
 */
export async function startWebProcess(port: number, env: Record<string, string> = {}): Promise<WebProcess> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, PORT: String(port), DATA_DIR: E2E_DATA_DIR, WORKER: "off", LOG_LEVEL: "warn", NEXT_TELEMETRY_DISABLED: "1", ...env },
  });
  const url = `http://localhost:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`web process exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("web process did not start");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Resident memory of a process in bytes (Linux). */
export function residentBytes(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(line?.match(/(\d+)/)?.[1] ?? 0) * 1024;
}
