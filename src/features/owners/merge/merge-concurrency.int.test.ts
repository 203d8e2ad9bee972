import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it, onTestFinished } from "vitest";
import { databaseUrl, getDb } from "../../../server/db/client";
import { connectPostgres } from "../../../server/db/url";
import { call } from "../../../test/http";
import { prospects } from "../../prospects/prospects.table";
import { webhookEndpoints } from "../../webhooks/webhooks.table";
import { mergeOwners } from "./merge";
import { duplicatePair, partnerCalls } from "./merge-test-helpers";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await sleep(20);
  }
}

describe("owner merge under concurrent partner writes (decisions §12: writes wait and are never lost)", () => {
  it("prospect POSTs under both slugs before, during and after the merge all land on the survivor", async () => {
    const { duplicate, survivor } = await duplicatePair();
    const db = await getDb();
    // The test's own hold and checks use their own connections: the writes waiting on the merge
    // may hold every connection of the service's pool meanwhile.
    const control = connectPostgres(await databaseUrl(), { max: 2 });
    onTestFinished(() => control.end());
    const onDuplicate = partnerCalls(duplicate.token, duplicate.owner.slug, duplicate.source);
    const onSurvivor = partnerCalls(duplicate.token, survivor.owner.slug, duplicate.source);
    const write = (batch: string, n: number) => [
      ...Array.from({ length: n }, (_, i) => ({ id: `${batch}-dup-${i}`, answer: onDuplicate.prospect(`${batch}-dup-${i}`, "b-dup", "u1") })),
      ...Array.from({ length: n }, (_, i) => ({ id: `${batch}-surv-${i}`, answer: onSurvivor.prospect(`${batch}-surv-${i}`, "b-surv", "u1") })),
    ];

    // Hold the merge open at its last statement: it has moved every record and marked the
    // duplicate, and waits to write its audit row (this database is the test file's own). The
    // writes of batch "during" arrive then, under both slugs.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const blocker = control.begin(async (tx) => {
      await tx`lock table audit_log in share row exclusive mode`;
      locked();
      await held;
    });
    await lockTaken;

    const before = write("before", 6);
    await sleep(30);
    const merge = mergeOwners(db, { cli: "test" }, { from: duplicate.owner.slug, into: survivor.owner.slug });
    // Until the merge waits at its audit row: every record moved, the transaction still open.
    await waitFor(async () => {
      const waiting = await control`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like 'insert into "audit_log"%'`;
      return waiting.length > 0;
    });
    const during = write("during", 6);
    const endpointDuring = call<{ endpoint: { id: string } }>("POST", `/api/partners/${duplicate.owner.slug}/webhooks/endpoints`, {
      token: duplicate.token,
      body: { endpoint: { name: "registered during the merge", destination_url: "https://localhost:9/during", events: ["prospect.created"] } },
    });
    await sleep(300);
    // The merge is still open: none of the writes sent during it is stored yet, under either slug.
    const early = await control`select source_prospect_id from prospects where source_prospect_id in ${control(during.map((w) => w.id))}`;
    expect(early).toEqual([]);
    release();
    await blocker;
    const merged = await merge;
    const after = write("after", 4);

    const all = [...before, ...during, ...after];
    const answers = await Promise.all(all.map((w) => w.answer));
    expect(answers.map((a) => a.status)).toEqual(all.map(() => 200));
    expect(merged.moved.prospects).toBeGreaterThanOrEqual(2);

    const stored = await db
      .select({ id: prospects.sourceProspectId, ownerId: prospects.ownerId })
      .from(prospects)
      .where(
        and(
          eq(prospects.source, duplicate.source),
          inArray(
            prospects.sourceProspectId,
            all.map((w) => w.id),
          ),
        ),
      );
    expect(stored.map((row) => row.id).sort()).toEqual(all.map((w) => w.id).sort());
    expect(new Set(stored.map((row) => row.ownerId))).toEqual(new Set([survivor.owner.id]));
    expect(await db.select().from(prospects).where(eq(prospects.ownerId, duplicate.owner.id))).toEqual([]);
    // A webhook endpoint registered under the old slug during the merge is the survivor's too.
    const endpoint = await endpointDuring;
    expect(endpoint.status).toBe(201);
    const [registered] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.body.endpoint.id));
    expect(registered.ownerId).toBe(survivor.owner.id);
  });

  it("an endpoint update and delete sent under the duplicate's slug during the merge act on the moved endpoint, never a 404", async () => {
    const { duplicate, survivor } = await duplicatePair();
    const db = await getDb();
    const control = connectPostgres(await databaseUrl(), { max: 2 });
    onTestFinished(() => control.end());
    const endpointsPath = `/api/partners/${duplicate.owner.slug}/webhooks/endpoints`;
    const register = async (name: string) =>
      (
        await call<{ endpoint: { id: string } }>("POST", endpointsPath, {
          token: duplicate.token,
          body: { endpoint: { name, destination_url: `https://localhost:9/${name}`, events: ["prospect.created"] } },
        })
      ).body.endpoint.id;
    const toUpdate = await register("update-me");
    const toDelete = await register("delete-me");

    // The merge held at its audit row, every record moved, as in the test above.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const blocker = control.begin(async (tx) => {
      await tx`lock table audit_log in share row exclusive mode`;
      locked();
      await held;
    });
    await lockTaken;
    const merge = mergeOwners(db, { cli: "test" }, { from: duplicate.owner.slug, into: survivor.owner.slug });
    await waitFor(
      async () => (await control`select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like 'insert into "audit_log"%'`).length > 0,
    );
    // Sent now, the requests read the duplicate as not merged yet, then wait at its gate.
    const update = call<{ endpoint: { name: string } }>("PUT", `${endpointsPath}/${toUpdate}`, {
      token: duplicate.token,
      body: { endpoint: { name: "renamed" } },
    });
    const removal = call<{ endpoint: { id: string } }>("DELETE", `${endpointsPath}/${toDelete}`, { token: duplicate.token });
    await sleep(300);
    release();
    await blocker;
    await merge;

    const [updated, removed] = await Promise.all([update, removal]);
    expect(updated.status).toBe(200);
    expect(updated.body.endpoint.name).toBe("renamed");
    expect(removed.status).toBe(200);
    const rows = await db
      .select()
      .from(webhookEndpoints)
      .where(inArray(webhookEndpoints.id, [toUpdate, toDelete]));
    expect(rows.find((row) => row.id === toUpdate)).toMatchObject({ ownerId: survivor.owner.id, name: "renamed", deletedAt: null });
    expect(rows.find((row) => row.id === toDelete)?.deletedAt).not.toBeNull();
  });
});
