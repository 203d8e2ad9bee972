import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { needsBuild } from "../cli/build-state";

/**
 * Real processes for the health and shutdown tests (decisions §14): the embedded PostgreSQL started
 * on its own data directory (used as an external server through DATABASE_URL, so a test can stop
 * it), `npm run worker` and the web process, each stopped after the file by the pid it was given.
 */
export type Started = { child: ChildProcess; output: () => string; exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }> };

const started: ChildProcess[] = [];
afterAll(async () => {
  const left = started.filter((child) => child.exitCode === null && child.signalCode === null);
  for (const child of left) child.kill("SIGKILL");
  await Promise.all(left.map((child) => new Promise((resolve) => child.once("exit", resolve))));
});

/**
 * The web process needs the production build (`.next`), which `npm test` makes only for the end-to-end
 * tests, after vitest: a test file that starts scripts/serve.ts builds it first when sources changed,
 * as `npm start` does. Files run side by side, so the build is taken under a lock directory (a lock
 * older than 20 minutes is a killed build's and is taken over); whoever waited takes the lock in
 * turn and finds it built.
 */
export async function ensureBuilt(): Promise<void> {
  if (!needsBuild()) return;
  const lock = path.join(os.tmpdir(), `pis-next-build-${createHash("sha256").update(process.cwd()).digest("hex").slice(0, 12)}.lock`);
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 20 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      // Not "built yet?" while the lock is held: a build under way writes BUILD_ID before it ends.
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
  try {
    if (!needsBuild()) return;
    const nextBin = path.join("node_modules", "next", "dist", "bin", "next");
    const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
    if (build.status !== 0) throw new Error(`next build failed (exit ${build.status})`);
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Build timeout for `beforeAll(ensureBuilt, BUILD_TIMEOUT_MS)`: a build on a busy 2-core machine. */
export const BUILD_TIMEOUT_MS = 15 * 60_000;

export function startProcess(args: string[], env: NodeJS.ProcessEnv, options: { detached?: boolean } = {}): Started {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { stdio: ["ignore", "pipe", "pipe"], env, detached: options.detached });
  started.push(child);
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** The embedded PostgreSQL of a fresh data directory in a process of its own; `stop` stops the server. */
export async function startDatabase(): Promise<{ url: string; dataDir: string; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pis-health-"));
  fs.chmodSync(dataDir, 0o755);
  const db = startProcess(["src/test/embedded-start.ts", dataDir], { ...process.env });
  await until(
    () => db.output().includes('"ready":true'),
    120_000,
    () => db.output(),
  );
  const { url } = JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8")) as { url: string };
  return {
    url,
    dataDir,
    stop: async () => {
      db.child.kill("SIGTERM");
      await db.exited;
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, explain: () => string = () => ""): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const holds = async () => {
    try {
      return await check();
    } catch {
      return false;
    }
  };
  while (!(await holds())) {
    if (Date.now() > deadline) throw new Error(`condition not met in time ${explain()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** GET a JSON route over a new connection each time; undefined when nothing listens. */
export function getJson(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: Record<string, unknown> } | undefined> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: 10_000, headers }, (response) => {
      let text = "";
      response.on("data", (chunk) => {
        text += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }));
      response.on("error", () => resolve(undefined));
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(undefined));
  });
}
