import { spawn } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { databaseUrl } from "./db/client";

/**
 * A failed statement's parameters never reach the log (docs/decisions.md, "Second security review"):
 * a real constraint error with a renter's email, made in a fresh process against this file's
 * database, logged the ways the service logs errors (the gateways' `{err, cause}`, the door's `{err}`,
 * an Error alone, graphile-worker's logger), and the output read back.
 */
const here = (file: string) => JSON.stringify(path.resolve(__dirname, file));
const EMAIL = "Jane.Renter-7731@Example.COM";

function run(script: string, url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "info" },
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", () => resolve(out));
  });
}

describe("log redaction of SQL parameters", () => {
  it("logs a constraint error with a renter's email without the email, keeping what failed", async () => {
    const script = `
      const { getDb, closeDb } = await import(${here("db/client.ts")});
      const { logger } = await import(${here("log.ts")});
      const { quietWorkerLogger } = await import(${here("jobs/logger.ts")});
      const { renterUsers } = await import(${here("../features/enrollment/renters/users.table.ts")});
      const db = await getDb();
      const failed = async (work) => { try { await work(); } catch (error) { return error; } throw new Error("no error"); };
      const check = await failed(() => db.insert(renterUsers).values({ email: ${JSON.stringify(EMAIL)} }));
      await db.insert(renterUsers).values({ email: ${JSON.stringify(EMAIL.toLowerCase())} });
      const unique = await failed(() => db.insert(renterUsers).values({ email: ${JSON.stringify(EMAIL.toLowerCase())} }));
      logger().error({ err: check, cause: check.cause, requestId: "r1" }, "unhandled error");
      logger().error({ err: unique, path: "/x" }, "request failed");
      logger().error(unique);
      quietWorkerLogger.error("job failed", { error: unique });
      console.log(JSON.stringify({ marker: "done", codes: [check.cause?.code, unique.cause?.code] }));
      process.exit(0);
    `;
    const out = await run(script, await databaseUrl());
    const lines = out
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line));
    expect(
      lines.find((line) => line.marker),
      out,
    ).toEqual({ marker: "done", codes: ["23514", "23505"] });
    expect(lines.filter((line) => line.level === 50)).toHaveLength(4);
    expect(out.toLowerCase()).not.toContain(EMAIL.toLowerCase());
    // What failed is still there: the statement, the constraint, the code.
    expect(out).toContain("insert into");
    expect(out).toContain("renter_users_email_lower_check");
    expect(out).toContain("renter_users_email_key");
    expect(out).toContain("23505");
  }, 60_000);
});
