import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { getJson, startProcess, until } from "../test/processes";

/**
 * decisions §14, Shutdown: Ctrl-C in a terminal sends SIGINT to the whole foreground process group.
 * `npm start`'s script on the embedded database, signalled that way, stops cleanly: no process left,
 * no FATAL or error line, exit status 0, and PostgreSQL stops after the web process has exited.
 */
const PORT = 5041;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

describe("npm start under Ctrl-C (decisions §14, Shutdown)", () => {
  it("stops every process on SIGINT to the process group, the embedded database last, with no FATAL line", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pis-start-stop-"));
    fs.chmodSync(dataDir, 0o755);
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(PORT),
      PUBLIC_BASE_URL: `http://localhost:${PORT}`,
      SKIP_BUILD: "1",
      SEED_DEMO: "0",
      LOG_LEVEL: "info",
    };
    delete env.DATABASE_URL;
    // Its own process group, as a terminal's foreground job is.
    const start = startProcess(["scripts/start.ts"], env, { detached: true });
    await until(
      async () => (await getJson(`http://127.0.0.1:${PORT}/readyz`))?.status === 200,
      150_000,
      () => start.output(),
    );
    const postgresPid = Number(fs.readFileSync(path.join(dataDir, "pg", "postmaster.pid"), "utf8").split("\n")[0]);
    const webPid = childrenOf(start.child.pid as number).find((pid) => pid !== postgresPid) as number;
    expect(alive(postgresPid) && alive(webPid)).toBe(true);
    // Should the stop fail, neither outlives the test (they are in process groups of their own).
    onTestFinished(() => {
      for (const pid of [webPid, postgresPid]) if (alive(pid)) process.kill(pid, "SIGKILL");
    });

    const died: Record<string, number> = {};
    const watch = setInterval(() => {
      const now = Date.now();
      if (!died.web && !alive(webPid)) died.web = now;
      if (!died.postgres && !alive(postgresPid)) died.postgres = now;
    }, 5);
    process.kill(-(start.child.pid as number), "SIGINT");
    const exit = await start.exited;
    await until(() => Boolean(died.web && died.postgres), 10_000);
    clearInterval(watch);

    expect(exit, start.output()).toEqual({ code: 0, signal: null });
    expect(died.postgres).toBeGreaterThanOrEqual(died.web);
    expect(start.output()).not.toMatch(/FATAL|"level":50|"level":60/);
    expect(start.output()).toContain("shutting down");
  }, 200_000);
});
