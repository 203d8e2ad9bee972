import { eq, sql } from "drizzle-orm";
import { parseCrontab } from "graphile-worker";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { addJob, crontabOf } from "../../server/jobs/define-task";
import { staff } from "../../test/console";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { emitEvent } from "./emit";
import { WEBHOOK_MESSAGES } from "./messages";
import { webhookEndpointSuspendFailing } from "./webhook_endpoint__suspend_failing";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "./webhooks.table";

const receiver = receiversOfThisFile();
const DAY = 86_400_000;
const REASON = WEBHOOK_MESSAGES.autoSuspended(5);

type EndpointView = { id: string; status: string; suspension_reason: string | null };

afterEach(() => {
  delete process.env.ENDPOINT_AUTO_SUSPEND_DAYS;
  resetConfig();
});

/** The hourly task, as graphile-worker's crontab queues it, run through the worker's task list. */
async function runTheCheck() {
  await addJob(await getDb(), webhookEndpointSuspendFailing, { _cron: { ts: new Date().toISOString(), backfilled: false } } as never);
  await runDueJobs();
}

/**
 * A partner whose endpoint (created `age` days ago, unchanged since) had one delivery attempted for
 * real at a receiver answering `status`, its attempt then moved `attemptedDaysAgo` days into the past.
 */
async function endpointWith({ status, age = 6, attemptedDaysAgo }: { status: number | null; age?: number; attemptedDaysAgo?: number }) {
  const partner = await webhookPartner();
  const hook = await receiver(status ?? 500);
  const endpoint = await partner.register(hook.url, ["prospect.ready"]);
  const db = await getDb();
  if (status !== null) {
    await emitEvent(db, { ownerId: partner.owner.id, ownerSlug: partner.owner.slug, event: "prospect.ready", data: { id: `p-${status}` } });
    await runDueJobs();
    expect(hook.received).toHaveLength(1);
  }
  const at = (days: number) => new Date(Date.now() - days * DAY);
  if (attemptedDaysAgo !== undefined) {
    const deliveries = db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint));
    await db
      .update(webhookDeliveries)
      .set({ createdAt: at(attemptedDaysAgo), lastAttemptedAt: at(attemptedDaysAgo) })
      .where(eq(webhookDeliveries.endpointId, endpoint));
    await db.execute(sql`update webhook_attempts set started_at = ${at(attemptedDaysAgo).toISOString()}::timestamptz where delivery_id in (${deliveries})`);
  }
  await db
    .update(webhookEndpoints)
    .set({ createdAt: at(age), updatedAt: at(age) })
    .where(eq(webhookEndpoints.id, endpoint));
  const get = async () => {
    const list = await call<{ endpoints: EndpointView[] }>("GET", partner.base, { token: partner.token });
    expect(list.status).toBe(200);
    return list.body.endpoints.find((e) => e.id === endpoint) as EndpointView;
  };
  return { ...partner, hook, endpoint, get };
}

describe("endpoint health guards: auto-suspend (decisions §16 Auto-suspend)", () => {
  it("suspends an endpoint whose attempts all failed for 5 days, with its reason in the Partner API and the console, and an audit row", async () => {
    const failing = await endpointWith({ status: 500, attemptedDaysAgo: 2 });
    await runTheCheck();
    expect(await failing.get()).toMatchObject({ status: "suspended", suspension_reason: REASON });
    const operator = await staff("operator");
    expect(await operator.webhooks.endpoints.detail({ id: failing.endpoint })).toMatchObject({ status: "suspended", suspension_reason: REASON });
    const audit = await operator.audit.search({ subjectType: "webhook_endpoint", subjectId: failing.endpoint });
    expect(audit.map(({ actor, action, before, after }) => ({ actor, action, before, after }))).toEqual([
      {
        actor: "system:webhook_endpoint__suspend_failing",
        action: "endpoints.auto_suspend",
        before: { status: "active" },
        after: { status: "suspended", suspension_reason: REASON, days: 5 },
      },
    ]);
    // The next run finds nothing more to do.
    await runTheCheck();
    expect(await operator.audit.search({ subjectType: "webhook_endpoint", subjectId: failing.endpoint })).toHaveLength(1);
  });

  it("leaves alone an endpoint with a success in the window, one never attempted, one attempted only before the window, and one changed within it", async () => {
    const succeeded = await endpointWith({ status: 200, attemptedDaysAgo: 3 });
    // A failing delivery since the success does not outweigh it.
    await emitEvent(await getDb(), { ownerId: succeeded.owner.id, ownerSlug: succeeded.owner.slug, event: "prospect.ready", data: { id: "later" } });
    succeeded.hook.answer({ status: 500 });
    await runDueJobs();
    expect(succeeded.hook.received).toHaveLength(2);
    const idle = await endpointWith({ status: null });
    const quiet = await endpointWith({ status: 500, attemptedDaysAgo: 6, age: 7 });
    const young = await endpointWith({ status: 500, attemptedDaysAgo: 1, age: 2 });
    await runTheCheck();
    for (const endpoint of [succeeded, idle, quiet, young]) expect(await endpoint.get()).toMatchObject({ status: "active", suspension_reason: null });
  });

  it("ENDPOINT_AUTO_SUSPEND_DAYS sets the window; 0 never suspends", async () => {
    const failing = await endpointWith({ status: 500, attemptedDaysAgo: 2, age: 3 });
    process.env.ENDPOINT_AUTO_SUSPEND_DAYS = "0";
    resetConfig();
    await runTheCheck();
    expect((await failing.get()).status).toBe("active");
    process.env.ENDPOINT_AUTO_SUSPEND_DAYS = "3";
    resetConfig();
    await runTheCheck();
    expect(await failing.get()).toMatchObject({ status: "suspended", suspension_reason: WEBHOOK_MESSAGES.autoSuspended(3) });
  });

  it("its due deliveries wait while suspended; PUT active clears the reason and resumes them at the receiver", async () => {
    const failing = await endpointWith({ status: 500, attemptedDaysAgo: 2 });
    const db = await getDb();
    await runTheCheck();
    expect(await failing.get()).toMatchObject({ status: "suspended", suspension_reason: REASON });
    // Its retry comes due while it is suspended: the claim parks it, as under a manual suspension.
    await db.update(webhookDeliveries).set({ nextRetryAt: new Date() }).where(eq(webhookDeliveries.endpointId, failing.endpoint));
    await db.execute(sql`update graphile_worker._private_jobs set run_at = now()`);
    await runDueJobs();
    expect(failing.hook.received).toHaveLength(1);
    const [parked] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, failing.endpoint));
    expect(parked).toMatchObject({ status: "retrying", attemptNumber: 1, nextRetryAt: null });

    failing.hook.answer({ status: 200 });
    const put = await call<{ endpoint: EndpointView }>("PUT", `${failing.base}/${failing.endpoint}`, {
      token: failing.token,
      body: { endpoint: { status: "active" } },
    });
    expect(put.status).toBe(200);
    expect(put.body.endpoint).toMatchObject({ status: "active", suspension_reason: null });
    await runDueJobs();
    expect(failing.hook.received.map((r) => r.headers["x-webhook-delivery"])).toEqual([parked.id, parked.id]);
    const rows = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, failing.endpoint));
    expect(rows.map((row) => [row.status, row.attemptNumber])).toEqual([["delivered", 2]]);
    expect((await (await staff("operator")).webhooks.endpoints.detail({ id: failing.endpoint })).suspension_reason).toBeNull();
    // Reactivation starts the window again: the old failures no longer count.
    await runTheCheck();
    expect((await failing.get()).status).toBe("active");
    expect(
      await db
        .select()
        .from(webhookAttempts)
        .where(sql`${webhookAttempts.deliveryId} in ${rows.map((r) => r.id)}`),
    ).toHaveLength(2);
  });

  it("the console's reactivation clears the reason too", async () => {
    const failing = await endpointWith({ status: 500, attemptedDaysAgo: 2 });
    await runTheCheck();
    const detail = await (await staff("operator")).webhooks.endpoints.setStatus({ id: failing.endpoint, status: "active" });
    expect(detail).toMatchObject({ status: "active", suspension_reason: null });
  });

  it("is scheduled hourly, making up a missed hour", () => {
    const crontab = crontabOf([webhookEndpointSuspendFailing]);
    expect(crontab).toBe("17 * * * * webhook_endpoint__suspend_failing ?fill=1h");
    expect(parseCrontab(crontab)).toMatchObject([{ task: "webhook_endpoint__suspend_failing", options: { backfillPeriod: 3_600_000 } }]);
  });
});
