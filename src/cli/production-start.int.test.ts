import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../server/db/client";

/**
 * decisions §14 "Production is given, never invents", through real processes: `npm start`'s script
 * and the worker refuse an unsafe production configuration before doing anything, and a safe one
 * starts without seeding or printing a secret and without writing a key file.
 */
const MASTER_KEY = randomBytes(32).toString("base64");
const AUTH_SECRET = randomBytes(32).toString("base64url");

function productionEnv(overrides: Record<string, string | undefined>): { env: NodeJS.ProcessEnv; dataDir: string } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pis-prod-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APP_ENV: "production",
    DATA_DIR: dataDir,
    PORT: "4510",
    PUBLIC_BASE_URL: "http://localhost:4510",
    SKIP_BUILD: "1",
    LOG_LEVEL: "info",
    MASTER_KEY,
    AUTH_SECRET,
    // No server listens there: nothing in these starts sends a renter message.
    SMTP_URL: "smtp://127.0.0.1:2525",
    MAIL_FROM: "Renters <no-reply@localhost>",
    ...overrides,
  };
  // The test harness allows private webhook destinations; a production start must not inherit that.
  if (!("WEBHOOK_ALLOW_PRIVATE_DESTINATIONS" in overrides)) delete env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS;
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return { env, dataDir };
}

type Run = { code: number | null; stdout: string; stderr: string };

/**
 * Runs a process to its end (killed after `timeoutMs`: a start that was not refused keeps going);
 * with `stopWhen`, sent SIGTERM once its standard output says so (a long-running process that started).
 */
function run(args: string[], env: NodeJS.ProcessEnv, options: { timeoutMs?: number; stopWhen?: string } = {}): Promise<Run> {
  const child = spawn(process.execPath, ["--import", "tsx", ...args], { stdio: ["ignore", "pipe", "pipe"], env });
  let stdout = "";
  let stderr = "";
  let stopping = false;
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
    // A moment after the line, so the process has set up its own shutdown; one signal only.
    if (!stopping && options.stopWhen && stdout.includes(options.stopWhen)) {
      stopping = true;
      setTimeout(() => child.kill("SIGTERM"), 1000);
    }
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 40_000);
  return new Promise((resolve) =>
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

async function expectRefused(script: string, overrides: Record<string, string | undefined>, variable: string): Promise<void> {
  const { env, dataDir } = productionEnv(overrides);
  const result = await run([script], env);
  expect(result.code, result.stderr).not.toBe(0);
  expect(result.code).not.toBeNull();
  const lines = result.stderr.trim().split("\n");
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toContain(variable);
  expect(result.stdout).toBe("");
  // Refused before anything was written: no key file, no database, no demo credentials.
  expect(fs.readdirSync(dataDir)).toEqual([]);
  fs.rmSync(dataDir, { recursive: true, force: true });
}

describe("npm start in production refuses what it would otherwise invent (decisions §14)", () => {
  it("refuses a missing MASTER_KEY with one line naming it, before building or listening", async () => {
    await expectRefused("scripts/start.ts", { MASTER_KEY: undefined }, "MASTER_KEY");
  }, 60_000);

  it("refuses a MASTER_KEY that is not 32 bytes in base64", async () => {
    await expectRefused("scripts/start.ts", { MASTER_KEY: randomBytes(16).toString("base64") }, "MASTER_KEY");
    await expectRefused("scripts/start.ts", { MASTER_KEY: "x".repeat(44) }, "MASTER_KEY");
  }, 60_000);

  it("refuses a missing or short AUTH_SECRET", async () => {
    await expectRefused("scripts/start.ts", { AUTH_SECRET: undefined }, "AUTH_SECRET");
    await expectRefused("scripts/start.ts", { AUTH_SECRET: "a".repeat(31) }, "AUTH_SECRET");
  }, 60_000);

  it("refuses SEED_DEMO=1 and WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=1", async () => {
    await expectRefused("scripts/start.ts", { SEED_DEMO: "1" }, "SEED_DEMO");
    await expectRefused("scripts/start.ts", { WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1" }, "WEBHOOK_ALLOW_PRIVATE_DESTINATIONS");
  }, 60_000);

  it("refuses a missing SMTP_URL or MAIL_FROM (renter messages, decisions §19)", async () => {
    await expectRefused("scripts/start.ts", { SMTP_URL: undefined }, "SMTP_URL");
    await expectRefused("scripts/start.ts", { MAIL_FROM: undefined }, "MAIL_FROM");
    await expectRefused("scripts/worker.ts", { SMTP_URL: undefined }, "SMTP_URL");
  }, 60_000);

  it("refuses the same in the worker process", async () => {
    await expectRefused("scripts/worker.ts", { MASTER_KEY: undefined }, "MASTER_KEY");
  }, 60_000);

  it("with valid keys starts, seeds nothing, prints no secret and writes no key file", async () => {
    const db = await getDb();
    const counts = async () =>
      (
        await db.execute<{ users: number; clients: number; owners: number; sources: number }>(
          sql`select (select count(*)::int from users) as users, (select count(*)::int from api_clients) as clients,
                     (select count(*)::int from property_owners) as owners, (select count(*)::int from sources) as sources`,
        )
      )[0];
    const before = await counts();
    const { env, dataDir } = productionEnv({});
    // npm start's steps up to (not including) the Next.js web process, as scripts/start.ts runs them.
    const script = [
      'import { prepareStart } from "./src/cli/start-sequence.ts";',
      'import { startBanner } from "./src/cli/start-banner.ts";',
      'import { getConfig } from "./src/server/config.ts";',
      'import { closeDb } from "./src/server/db/client.ts";',
      'import { refuseUnsafeStart } from "./src/server/start-check.ts";',
      "refuseUnsafeStart();",
      "const { demo } = await prepareStart(getConfig());",
      "process.stdout.write(startBanner(getConfig(), demo));",
      "await closeDb();",
    ].join("\n");
    const result = await run(["--input-type=module", "-e", script], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("running at http://localhost:4510");
    expect(await counts()).toEqual(before);
    const printed = result.stdout + result.stderr;
    for (const secret of ["client_secret", "password=", MASTER_KEY, AUTH_SECRET]) expect(printed).not.toContain(secret);
    expect(fs.readdirSync(dataDir)).toEqual([]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("with valid keys the worker process starts and stops, writing no key file", async () => {
    const { env, dataDir } = productionEnv({});
    const result = await run(["scripts/worker.ts"], env, { stopWhen: '"msg":"worker started"' });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain("worker started");
    for (const secret of [MASTER_KEY, AUTH_SECRET]) expect(result.stdout + result.stderr).not.toContain(secret);
    expect(fs.readdirSync(dataDir)).toEqual([]);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);
});
