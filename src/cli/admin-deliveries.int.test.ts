import os from "node:os";
import { eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { searchAudit } from "../features/audit/audit";
import { emitEvent } from "../features/webhooks/emit";
import { webhookPartner } from "../features/webhooks/webhook-test-helpers";
import { webhookDeliveries } from "../features/webhooks/webhooks.table";
import { getDb } from "../server/db/client";
import { receiversOfThisFile } from "../test/https-receiver";
import { runDueJobs } from "../test/jobs";
import { admin } from "./admin-test-helpers";

afterEach(() => vi.restoreAllMocks());

const receiver = receiversOfThisFile();

describe("npm run admin -- delivery retry-failed (decisions §4)", () => {
  it("counts with --dry-run, then re-enqueues the owner's failed deliveries (by endpoint and since), audited as the CLI", async () => {
    const { owner, register } = await webhookPartner();
    const hook = await receiver(500);
    const first = await register(hook.url, ["prospect.ready"], "first");
    const second = await register(hook.url, ["prospect.ready"], "second");
    const db = await getDb();
    for (const id of ["a", "b"]) await emitEvent(db, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.ready", data: { id } });
    await runDueJobs();
    await db.update(webhookDeliveries).set({ status: "failed", attemptNumber: 25, nextRetryAt: null }).where(eq(webhookDeliveries.ownerId, owner.id));
    await db.execute(sql`delete from graphile_worker._private_jobs`);

    expect(await admin("delivery", "retry-failed", "--owner", owner.slug, "--dry-run")).toMatchObject({ code: 0, out: { matched: 4, enqueued: 0 } });
    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await admin("delivery", "retry-failed", "--owner", owner.slug, "--since", future, "--dry-run")).out).toEqual({ matched: 0, enqueued: 0 });
    // The dry runs changed nothing.
    const untouched = await (await getDb()).select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(eq(webhookDeliveries.ownerId, owner.id));
    expect(untouched.map((d) => d.status)).toEqual(["failed", "failed", "failed", "failed"]);

    hook.answer({ status: 200 });
    const run = await admin("delivery", "retry-failed", "--owner", owner.slug, "--endpoint", first);
    expect(run).toMatchObject({ code: 0, err: "", out: { matched: 2, enqueued: 2 } });
    await runDueJobs();
    // The CLI closes its connections when done: the test takes a fresh one.
    const after = await getDb();
    const statuses = await after
      .select({ endpoint: webhookDeliveries.endpointId, status: webhookDeliveries.status })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.ownerId, owner.id));
    expect(statuses.filter((s) => s.endpoint === first).map((s) => s.status)).toEqual(["delivered", "delivered"]);
    expect(statuses.filter((s) => s.endpoint === second).map((s) => s.status)).toEqual(["failed", "failed"]);

    const [entry] = await searchAudit(after, { action: "deliveries.bulk_retry", ownerId: owner.id });
    expect(entry).toMatchObject({ actor: `cli:${os.userInfo().username}`, after: { matched: 2, filter: { owner: owner.slug, endpoint_id: first } } });
  });

  it("refuses an unknown owner or a bad --since with a message", async () => {
    const unknown = await admin("delivery", "retry-failed", "--owner", "no-such-owner");
    expect(unknown).toMatchObject({ code: 1, err: expect.stringContaining("No owner no-such-owner (not_found)") });
    const { owner } = await webhookPartner();
    const bad = await admin("delivery", "retry-failed", "--owner", owner.slug, "--since", "yesterday");
    expect(bad).toMatchObject({ code: 1, err: expect.stringContaining("from:") });
    expect((await admin("delivery", "retry-failed")).err).toContain("--owner is required");
  });
});
