import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../db/client";
import { health } from "../health";
import { addJob } from "./add-job";

async function jobsNamed(task: string) {
  const db = await getDb();
  return db.execute<{ task_identifier: string; payload: unknown; key: string | null }>(
    // The public `jobs` view omits payloads; the private table holds them.
    sql`select t.identifier as task_identifier, j.payload, j.key
        from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
        where t.identifier = ${task}`,
  );
}

describe("addJob (decisions §1: jobs added in the same transaction as the change)", () => {
  it("commits the job with the transaction", async () => {
    const db = await getDb();
    await db.transaction(async (tx) => addJob(tx, "system__noop", { n: 1 }, { jobKey: "commit-1" }));
    const rows = await jobsNamed("system__noop");
    expect(rows.filter((row) => row.key === "commit-1")).toEqual([{ task_identifier: "system__noop", payload: { n: 1 }, key: "commit-1" }]);
  });

  it("loses the job when the transaction rolls back", async () => {
    const db = await getDb();
    await expect(
      db.transaction(async (tx) => {
        await addJob(tx, "system__noop", { n: 2 }, { jobKey: "rollback-1" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect((await jobsNamed("system__noop")).filter((row) => row.key === "rollback-1")).toEqual([]);
  });

  it("replaces a pending job with the same key", async () => {
    const db = await getDb();
    await addJob(db, "system__noop", { version: 1 }, { jobKey: "replace-1" });
    await addJob(db, "system__noop", { version: 2 }, { jobKey: "replace-1" });
    expect((await jobsNamed("system__noop")).filter((row) => row.key === "replace-1").map((row) => row.payload)).toEqual([{ version: 2 }]);
  });
});

describe("health", () => {
  it("reports the database, the worker and the queue depth", async () => {
    const report = await health();
    expect(report.status).toBe("ok");
    expect(report.database.status).toBe("ok");
    expect(report).toMatchObject({ worker: { mode: "off", running: false }, jobs: { ready: expect.any(Number), locked: 0 } });
  });
});
