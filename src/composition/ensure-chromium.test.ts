import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const script = path.resolve(import.meta.dirname, "../../scripts/ensure-chromium.sh");
const run = (env: Record<string, string>) => spawnSync("bash", [script], { env: { ...process.env, ...env }, encoding: "utf8" });

describe("npm test's browser check (scripts/ensure-chromium.sh)", () => {
  it("passes silently when the browser is there", () => {
    const answer = run({ CHROMIUM_PATH: "/bin/true" });
    expect(answer.status).toBe(0);
    expect(answer.stdout + answer.stderr).toBe("");
  });

  it("stops at once with one line saying exactly what to run when it may not install", () => {
    const answer = run({ CHROMIUM_PATH: "/nonexistent/chromium", CHROMIUM_INSTALL: "never" });
    expect(answer.status).toBe(1);
    expect(answer.stdout).toBe("");
    expect(answer.stderr.trim().split("\n")).toHaveLength(1);
    expect(answer.stderr).toContain("sudo apt-get install -y chromium");
  });
});
