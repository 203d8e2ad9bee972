import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The log (log.ts) loses nothing: a line is out while the process keeps running, and the lines of a
 * process that crashes right after logging are written before it exits. Guards any future attempt
 * to buffer log writes (one was measured and not kept: docs/decisions.md,
 * "Performance: API throughput").
 */
const LOG_MODULE = path.resolve(__dirname, "log.ts");

/** `lineBeforeExitMs`: how long before the process ended its first output arrived. */
type Run = { stdout: string; code: number | null; lineBeforeExitMs?: number };

/** Runs `body` (with `logger` in scope) in a fresh Node process and collects its stdout. */
function runWithLogger(body: string): Promise<Run> {
  const script = `const { logger } = await import(${JSON.stringify(LOG_MODULE)});\n${body}`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, LOG_LEVEL: "info" },
    });
    let stdout = "";
    let firstLineAt: number | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      firstLineAt ??= Date.now();
      stdout += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ stdout, code, lineBeforeExitMs: firstLineAt === undefined ? undefined : Date.now() - firstLineAt }));
  });
}

const lines = (stdout: string) =>
  stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { msg: string; n?: number });

describe("log writes", () => {
  it("writes a line without waiting for more lines or for the process to end", async () => {
    // The process stays up 3 s after logging; the line must arrive well before that.
    const run = await runWithLogger(`logger().info({ n: 1 }, "alone"); setTimeout(() => process.exit(0), 3000);`);
    expect(lines(run.stdout).map((line) => line.msg)).toEqual(["alone"]);
    expect(run.lineBeforeExitMs).toBeGreaterThan(2000);
  }, 30_000);

  it("keeps every line, in order, when the process crashes right after logging", async () => {
    const run = await runWithLogger(`for (let n = 0; n < 500; n++) logger().info({ n }, "before crash"); throw new Error("boom");`);
    expect(run.code).not.toBe(0);
    const written = lines(run.stdout);
    expect(written).toHaveLength(500);
    expect(written.map((line) => line.n)).toEqual(Array.from({ length: 500 }, (_, n) => n));
  }, 30_000);

  it("keeps the lines of an error thrown from a later callback (an uncaught crash mid-request)", async () => {
    const run = await runWithLogger(`setTimeout(() => { logger().error({ n: 7 }, "request failed"); throw new Error("boom"); }, 50);`);
    expect(run.code).not.toBe(0);
    expect(lines(run.stdout).map((line) => line.msg)).toEqual(["request failed"]);
  }, 30_000);
});
