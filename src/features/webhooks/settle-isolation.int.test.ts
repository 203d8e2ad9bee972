import { eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { receiversOfThisFile } from "../../test/https-receiver";
import { queuedJobs } from "../../test/jobs";
import { propertyOwners } from "../owners/owners.table";
import { attemptDeliveries } from "./deliver";
import { emitEvent } from "./emit";
import { WEBHOOK_MESSAGES } from "./messages";
import { deliveryTask } from "./webhook_delivery__attempt";
import { reapLapsedDeliveries } from "./webhook_delivery__reap";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookAttempts, webhookDeliveries } from "./webhooks.table";

const receiver = receiversOfThisFile();

async function clearJobs() {
  await (await getDb()).execute(sql`delete from graphile_worker._private_jobs`);
}

/** Two partners (two owners), each with endpoints at the given receivers, one event each: the deliveries by receiver URL. */
async function batchOf(...groups: Array<Array<{ url: string }>>) {
  const db = await getDb();
  const endpoints: Record<string, string> = {};
  for (const [index, hooks] of groups.entries()) {
    const { owner, register } = await webhookPartner();
    for (const hook of hooks) endpoints[await register(hook.url, ["prospect.created"])] = hook.url;
    await emitEvent(db, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: `batch-${index}` } });
  }
  await clearJobs();
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.endpointId, Object.keys(endpoints)));
  return { ids: rows.map((row) => row.id), byUrl: (url: string) => rows.find((row) => endpoints[row.endpointId] === url)?.id as string };
}

async function state(ids: string[]) {
  const db = await getDb();
  const deliveries = await db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
  const attempts = await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids));
  return {
    delivery: (id: string) => deliveries.find((row) => row.id === id),
    attempts: (id: string) => attempts.filter((row) => row.deliveryId === id),
    delivering: deliveries.filter((row) => row.status === "delivering" || row.leaseExpiresAt !== null),
  };
}

const sentOnce = (hooks: Array<{ received: Array<{ headers: Record<string, string> }> }>) =>
  hooks.flatMap((hook) => hook.received.map((r) => r.headers["x-webhook-delivery"]));

describe("a receiver's answer never stops an attempt from being recorded (docs/decisions.md, Hardening: deliveries)", () => {
  it("records every attempt of a batch whose 2xx answers start with NUL, hold invalid UTF-8 or are UTF-16, each delivery sent once", async () => {
    const nul = await receiver({ status: 200, body: Buffer.from([0x00, 0x01, 0x02, 0x6f, 0x6b]) });
    const utf16 = await receiver({ status: 200, body: Buffer.from("\uFEFFaccepted", "utf16le") });
    const invalid = await receiver({ status: 200, body: Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0x6f, 0x6b]) });
    const failing = await receiver({ status: 500, body: Buffer.concat([Buffer.from([0]), Buffer.alloc(600, 0xe2)]) });
    const plain = await receiver(200);
    const { ids, byUrl } = await batchOf([nul, utf16, invalid, failing], [plain]);
    expect(ids).toHaveLength(5);

    // One batch, as a sweep or a reap pass after a crash gives it: two owners' deliveries together.
    await attemptDeliveries(ids);

    const after = await state(ids);
    expect(after.delivering).toEqual([]);
    for (const hook of [nul, utf16, invalid, plain]) expect(after.delivery(byUrl(hook.url))).toMatchObject({ status: "delivered", attemptNumber: 1 });
    expect(after.delivery(byUrl(failing.url))).toMatchObject({ status: "retrying", attemptNumber: 1, lastAttemptFailureReason: "HTTP 500" });
    for (const id of ids) expect(after.attempts(id)).toHaveLength(1);
    const excerpt = (hook: { url: string }) => after.attempts(byUrl(hook.url))[0].responseBodyExcerpt ?? "";
    expect(excerpt(nul)).toBe("\uFFFD\u0001\u0002ok");
    expect(excerpt(utf16)).toContain("\uFFFD");
    expect(excerpt(utf16)).not.toContain("\u0000");
    expect(excerpt(invalid)).toMatch(/^\uFFFD+\(\uFFFD+ok$/);
    expect(excerpt(failing).startsWith("\uFFFD")).toBe(true);
    expect(excerpt(failing).length).toBeLessThanOrEqual(512);
    expect(sentOnce([nul, utf16, invalid, failing, plain]).sort()).toEqual([...ids].sort());
  });

  it("settles the rest of the batch, and counts the attempt of a delivery whose recording the database refuses", async () => {
    const victimHook = await receiver(500);
    const others = [await receiver(200), await receiver(200)];
    const { ids, byUrl } = await batchOf([victimHook, others[0]], [others[1]]);
    const victim = byUrl(victimHook.url);
    const db = await getDb();
    // A real fault of PostgreSQL for this one delivery's attempt row (not the excerpt).
    await db.execute(
      sql.raw(`create function refuse_attempt() returns trigger language plpgsql as $$
        begin if new.delivery_id = '${victim}' then raise exception 'attempt refused for %', new.delivery_id; end if; return new; end $$;
        create trigger refuse_attempt before insert on webhook_attempts for each row execute function refuse_attempt();`),
    );
    try {
      await attemptDeliveries(ids);
    } finally {
      await db.execute(sql`drop trigger refuse_attempt on webhook_attempts; drop function refuse_attempt()`);
    }
    const after = await state(ids);
    expect(after.delivering).toEqual([]);
    for (const hook of others) {
      expect(after.delivery(byUrl(hook.url))).toMatchObject({ status: "delivered", attemptNumber: 1 });
      expect(after.attempts(byUrl(hook.url))).toHaveLength(1);
    }
    const settled = after.delivery(victim);
    expect(settled).toMatchObject({ status: "retrying", attemptNumber: 1, leaseExpiresAt: null });
    expect(settled?.lastAttemptFailureReason).toBe(`${WEBHOOK_MESSAGES.attemptNotRecorded}; HTTP 500`);
    expect(after.attempts(victim)).toEqual([]);
    // Its next try is scheduled on the schedule (4 s before the second attempt), not re-sent at once.
    const jobs = await queuedJobs(deliveryTask.name);
    expect(jobs.map((job) => job.payload)).toEqual([{ deliveryIds: [victim] }]);
    expect(jobs[0].due_in_seconds).toBeGreaterThan(2);
    expect(sentOnce([victimHook, ...others]).sort()).toEqual([...ids].sort());
  });

  it("counts the attempt of a delivery that cannot be sent (its owner's secret unreadable) and sends the others", async () => {
    const broken = await receiver(200);
    const fine = await receiver(200);
    const db = await getDb();
    const { owner, register } = await webhookPartner();
    const brokenEndpoint = await register(broken.url, ["prospect.created"]);
    await emitEvent(db, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: "unsigned" } });
    await db.update(propertyOwners).set({ signingSecretEncrypted: "v1:not-a-sealed-secret" }).where(eq(propertyOwners.id, owner.id));
    const { ids: fineIds } = await batchOf([fine]);
    const [brokenDelivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, brokenEndpoint));
    await clearJobs();

    await attemptDeliveries([brokenDelivery.id, ...fineIds]);

    const after = await state([brokenDelivery.id, ...fineIds]);
    expect(after.delivering).toEqual([]);
    expect(after.delivery(fineIds[0])).toMatchObject({ status: "delivered", attemptNumber: 1 });
    expect(after.delivery(brokenDelivery.id)).toMatchObject({
      status: "retrying",
      attemptNumber: 1,
      lastAttemptFailureReason: WEBHOOK_MESSAGES.attemptNotSent,
    });
    expect(after.attempts(brokenDelivery.id).map((a) => a.failureReason)).toEqual([WEBHOOK_MESSAGES.attemptNotSent]);
    expect(broken.received).toHaveLength(0);
    expect(fine.received).toHaveLength(1);
  });
});

describe("a lapsed lease counts as an attempt (docs/decisions.md, Hardening: deliveries)", () => {
  /** As a worker killed mid-attempt leaves it: delivering, its lease lapsed 10 s ago, claimed 40 s ago. */
  const strand = async (id: string) =>
    (await getDb()).execute(
      sql`update webhook_deliveries set status = 'delivering', lease_expires_at = now() - interval '10 seconds', updated_at = now() - interval '40 seconds' where id = ${id}`,
    );

  it("records and counts each lapsed lease, retries on the schedule, and ends failed after attempt 25", async () => {
    const hook = await receiver(200);
    const { ids } = await batchOf([hook]);
    const [id] = ids;
    const db = await getDb();
    for (let attempt = 1; attempt <= 25; attempt++) {
      await strand(id);
      await clearJobs();
      expect(await reapLapsedDeliveries()).toBe(1);
      const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
      expect(row).toMatchObject({ attemptNumber: attempt, leaseExpiresAt: null, lastAttemptFailureReason: WEBHOOK_MESSAGES.leaseLapsed });
      const jobs = await queuedJobs(deliveryTask.name);
      if (attempt < 25) {
        expect(row.status).toBe("retrying");
        const wait = Math.min(2 ** (attempt + 1), 3600);
        const due = ((row.nextRetryAt?.getTime() ?? 0) - Date.now()) / 1000;
        expect(due).toBeGreaterThan(wait - 5);
        expect(due).toBeLessThanOrEqual(wait);
        expect(jobs).toHaveLength(1);
        expect(jobs[0].due_in_seconds).toBeGreaterThan(wait - 5);
      } else {
        expect(row).toMatchObject({ status: "failed", nextRetryAt: null });
        expect(jobs).toEqual([]);
      }
    }
    const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)).orderBy(webhookAttempts.number);
    expect(attempts.map((a) => a.number)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(attempts[0]).toMatchObject({ responseStatus: null, failureReason: WEBHOOK_MESSAGES.leaseLapsed, requestHeaders: {} });
    expect(attempts[0].durationMs).toBeGreaterThanOrEqual(39_000);
    expect(hook.received).toHaveLength(0);
  });

  it("reaps the other lapsed deliveries when the database refuses to settle one of them", async () => {
    const hooks = [await receiver(200), await receiver(200), await receiver(200)];
    const { ids, byUrl } = await batchOf([hooks[0], hooks[1]], [hooks[2]]);
    const victim = byUrl(hooks[0].url);
    const db = await getDb();
    for (const id of ids) await strand(id);
    await db.execute(
      sql.raw(`create function refuse_reap() returns trigger language plpgsql as $$
        begin if new.id = '${victim}' and new.status <> 'delivering' then raise exception 'reap refused for %', new.id; end if; return new; end $$;
        create trigger refuse_reap before update on webhook_deliveries for each row execute function refuse_reap();`),
    );
    try {
      expect(await reapLapsedDeliveries()).toBe(2);
    } finally {
      await db.execute(sql`drop trigger refuse_reap on webhook_deliveries; drop function refuse_reap()`);
    }
    const after = await state(ids);
    for (const id of ids.filter((id) => id !== victim)) expect(after.delivery(id)).toMatchObject({ status: "retrying", attemptNumber: 1 });
    expect(after.delivery(victim)).toMatchObject({ status: "delivering", attemptNumber: 0 });
    // Once the fault is gone, the next pass reaps it too.
    expect(await reapLapsedDeliveries()).toBe(1);
  });
});
