import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "../db/client";
import { addJob, addJobs, defineTask, taskListOf } from "./define-task";
import { systemNoop } from "./system__noop";

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
    await db.transaction(async (tx) => addJob(tx, systemNoop, { n: 1 }, { jobKey: "commit-1" }));
    const rows = await jobsNamed("system__noop");
    expect(rows.filter((row) => row.key === "commit-1")).toEqual([{ task_identifier: "system__noop", payload: { n: 1 }, key: "commit-1" }]);
  });

  it("loses the job when the transaction rolls back", async () => {
    const db = await getDb();
    await expect(
      db.transaction(async (tx) => {
        await addJob(tx, systemNoop, { n: 2 }, { jobKey: "rollback-1" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect((await jobsNamed("system__noop")).filter((row) => row.key === "rollback-1")).toEqual([]);
  });

  it("replaces a pending job with the same key", async () => {
    const db = await getDb();
    await addJob(db, systemNoop, { version: 1 }, { jobKey: "replace-1" });
    await addJob(db, systemNoop, { version: 2 }, { jobKey: "replace-1" });
    expect((await jobsNamed("system__noop")).filter((row) => row.key === "replace-1").map((row) => row.payload)).toEqual([{ version: 2 }]);
  });
});

describe("typed jobs (one definition gives the task list and the enqueue function)", () => {
  const bounded = defineTask({ name: "test__bounded", payload: z.object({ id: z.number().int() }), maxAttempts: 3, handler: async () => {} });

  it("refuses at compile time a task that is not a definition, or a payload of the wrong shape", async () => {
    const db = await getDb();
    // @ts-expect-error a task name is not a task: a misspelt name cannot compile
    await expect(addJob(db, "system__nop", {})).rejects.toThrow();
    // @ts-expect-error the payload must match the task's schema (and is checked when added, too)
    await expect(addJob(db, bounded, { id: "one" })).rejects.toThrow();
  });

  it("adds the job with the task's own attempt limit", async () => {
    const db = await getDb();
    await addJob(db, bounded, { id: 1 }, { jobKey: "bounded-1" });
    const [row] = await db.execute<{ max_attempts: number }>(sql`select max_attempts from graphile_worker.jobs where key = 'bounded-1'`);
    expect(row.max_attempts).toBe(3);
  });

  it("adds many jobs of one task in one statement, checked, and a pending key keeps its run time when asked", async () => {
    const db = await getDb();
    const later = new Date(Date.now() + 3_600_000);
    await addJobs(db, bounded, [
      { payload: { id: 1 }, jobKey: "many-1", runAt: later },
      { payload: { id: 2 }, jobKey: "many-2" },
    ]);
    await addJobs(db, bounded, [{ payload: { id: 3 }, jobKey: "many-1" }], { preserveRunAt: true });
    const rows = await db.execute<{ key: string; max_attempts: number; later: boolean }>(
      sql`select key, max_attempts, run_at > now() + interval '30 minutes' as later from graphile_worker.jobs where key like 'many-%' order by key`,
    );
    expect(rows.map((row) => ({ ...row }))).toEqual([
      { key: "many-1", max_attempts: 3, later: true },
      { key: "many-2", max_attempts: 3, later: false },
    ]);
    // @ts-expect-error payloads are typed here too, and checked before anything is added
    await expect(addJobs(db, bounded, [{ payload: { id: 4 } }, { payload: { id: "x" } }])).rejects.toThrow();
  });

  it("validates the payload before the handler runs, and refuses a task defined twice", async () => {
    const seen: unknown[] = [];
    const task = defineTask({ name: "test__seen", payload: z.object({ id: z.number().int() }), handler: async (payload) => void seen.push(payload) });
    const run = taskListOf([task], async () => {}).test__seen as (payload: unknown, helpers: never) => Promise<void>;
    await expect(run({ id: "x" }, {} as never)).rejects.toThrow();
    await run({ id: 7 }, {} as never);
    expect(seen).toEqual([{ id: 7 }]);
    expect(() => taskListOf([task, task], async () => {})).toThrow("defined twice");
    expect(() => defineTask({ name: "NotATask", payload: z.object({}), handler: async () => {} })).toThrow("<entity>__<action>");
  });
});
