import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { auditLog } from "../audit/audit-log.table";
import { bulkRetries } from "../webhooks/console/bulk-retries.table";
import { BULK_RETRYABLE } from "../webhooks/console/retry";
import { startEndpointRetry } from "../webhooks/console/webhook_delivery__bulk_retry";
import { emitEvent } from "../webhooks/emit";
import { WEBHOOK_MESSAGES } from "../webhooks/messages";
import { webhookPartner } from "../webhooks/webhook-test-helpers";
import { webhookDeliveries } from "../webhooks/webhooks.table";
import { PORTAL_MESSAGES } from "./messages";
import { PORTAL_RETRYABLE, portalDeliveries, portalRetryInput, retryPortalDelivery, sendPortalTestEvent, setPortalEndpointPaused, sinceOf } from "./portal";
import { openedPortal } from "./portal-test-helpers";

const receiver = receiversOfThisFile();

async function sessionOf(partner: Awaited<ReturnType<typeof webhookPartner>>) {
  return (await openedPortal(partner)).session;
}

const deliveriesOf = async (endpointId: string) => (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

/** As the page's action does: the form read by the portal, then the partner route's own function with the session's subscriber. */
const retryFromPortal = async (session: Awaited<ReturnType<typeof sessionOf>>, endpointId: string, form: { status: string; since: string }) =>
  startEndpointRetry(await getDb(), session.subscriber, endpointId, portalRetryInput(form), { portalSession: session.id });

const recoveriesOf = async (endpointId: string) => (await getDb()).select().from(bulkRetries).where(sql`${bulkRetries.filter}->>'endpoint_id' = ${endpointId}`);

describe("the portal's test event and recovery (decisions §16 Portal)", () => {
  it("sends a test event to the session's endpoint: one delivery marked test, listed and delivered with X-Webhook-Test", async () => {
    const mine = await webhookPartner();
    const hook = await receiver(200);
    const endpointId = await mine.register(hook.url, ["prospect.created", "prospect.ready"]);
    const db = await getDb();
    const session = await sessionOf(mine);
    const { deliveryId } = await sendPortalTestEvent(db, session, endpointId, "prospect.ready");
    const page = await portalDeliveries(db, session, endpointId, {});
    expect(page.deliveries.map((delivery) => [delivery.id, delivery.event, delivery.test])).toEqual([[deliveryId, "prospect.ready", true]]);
    await runDueJobs();
    expect(hook.received).toHaveLength(1);
    expect(hook.received[0].headers["x-webhook-test"]).toBe("true");
    expect(hook.received[0].headers["x-webhook-delivery"]).toBe(deliveryId);
  });

  it("refuses an event the endpoint does not subscribe to (its field) and another partner's endpoint, recording nothing", async () => {
    const mine = await webhookPartner();
    const endpointId = await mine.register("https://localhost:9/hook", ["prospect.created"]);
    const theirs = await webhookPartner();
    const theirsId = await theirs.register("https://localhost:9/hook", ["prospect.created"]);
    const db = await getDb();
    const session = await sessionOf(mine);
    await expect(sendPortalTestEvent(db, session, endpointId, "prospect.ready")).rejects.toMatchObject({
      kind: "invalid",
      fields: { event: [WEBHOOK_MESSAGES.notSubscribed("prospect.ready")] },
    });
    await expect(sendPortalTestEvent(db, session, endpointId, "no.such")).rejects.toMatchObject({ kind: "invalid", fields: { event: expect.any(Array) } });
    await expect(sendPortalTestEvent(db, session, theirsId, "prospect.created")).rejects.toMatchObject({ kind: "not_found" });
    expect(await deliveriesOf(endpointId)).toEqual([]);
    expect(await deliveriesOf(theirsId)).toEqual([]);
  });

  it("retries the endpoint's failed deliveries since a UTC time: the matched count, one at a time (409), and they are delivered", async () => {
    const mine = await webhookPartner();
    const hook = await receiver(200);
    const endpointId = await mine.register(hook.url, ["prospect.created"]);
    const db = await getDb();
    for (let i = 0; i < 3; i++) await emitEvent(db, { ownerId: mine.owner.id, ownerSlug: mine.owner.slug, event: "prospect.created", data: { id: `p-${i}` } });
    await runDueJobs();
    const ids = (await deliveriesOf(endpointId)).map((delivery) => delivery.id);
    expect(ids).toHaveLength(3);
    // Two failed inside the window, one failed before it.
    await db.execute(
      sql`update webhook_deliveries set status = 'failed', attempt_number = 25, next_retry_at = null, created_at = '2026-11-20T09:00:00Z' where id in (${ids[0]}, ${ids[1]})`,
    );
    await db.execute(
      sql`update webhook_deliveries set status = 'failed', attempt_number = 25, next_retry_at = null, created_at = '2026-11-20T07:59:00Z' where id = ${ids[2]}`,
    );
    hook.received.length = 0;
    const session = await sessionOf(mine);
    const { matched } = await retryFromPortal(session, endpointId, { status: "failed", since: "2026-11-20T08:00" });
    expect(matched).toBe(2);
    await expect(retryFromPortal(session, endpointId, { status: "failed", since: "2026-11-20T08:00" })).rejects.toMatchObject({
      kind: "conflict",
      message: WEBHOOK_MESSAGES.recoveryRunning,
    });
    await runDueJobs(); // the recovery's job
    await runDueJobs(); // the re-enqueued deliveries' attempts
    expect(hook.received).toHaveLength(2);
    expect(await recoveriesOf(endpointId)).toHaveLength(1);
  });

  it("refuses a bad status or since next to its field, and another partner's endpoint, recording no recovery", async () => {
    const mine = await webhookPartner();
    const endpointId = await mine.register("https://localhost:9/hook", ["prospect.created"]);
    const theirs = await webhookPartner();
    const theirsId = await theirs.register("https://localhost:9/hook", ["prospect.created"]);
    const session = await sessionOf(mine);
    await expect(retryFromPortal(session, endpointId, { status: "delivered", since: "2026-02-31T08:00" })).rejects.toMatchObject({
      kind: "invalid",
      fields: { status: [PORTAL_MESSAGES.retryStatusInvalid], since: [PORTAL_MESSAGES.sinceInvalid] },
    });
    await expect(retryFromPortal(session, endpointId, { status: "failed", since: "" })).rejects.toMatchObject({
      kind: "invalid",
      fields: { since: [PORTAL_MESSAGES.sinceInvalid] },
    });
    await expect(retryFromPortal(session, theirsId, { status: "failed", since: "2026-11-20T08:00" })).rejects.toMatchObject({ kind: "not_found" });
    expect(await recoveriesOf(endpointId)).toEqual([]);
    expect(await recoveriesOf(theirsId)).toEqual([]);
  });

  it("reads the form's date-time as UTC and refuses what is not one; offers the route's statuses", () => {
    expect(PORTAL_RETRYABLE).toEqual(BULK_RETRYABLE);
    expect(sinceOf("2026-11-20T08:00")).toBe("2026-11-20T08:00:00Z");
    expect(sinceOf("2026-11-20T08:00:30")).toBe("2026-11-20T08:00:30Z");
    for (const bad of [
      "",
      "2026-11-20",
      "2026-11-20T08:00Z",
      "2026-13-01T00:00",
      "2026-02-29T00:00",
      "0000-01-01T00:00",
      "2026-11-20T24:00",
      " 2026-11-20T08:00",
    ])
      expect(sinceOf(bad)).toBeUndefined();
  });

  it("audits the portal's pause, resume, test event, retry and recovery with the session; the API's recovery with the client", async () => {
    const mine = await webhookPartner();
    const hook = await receiver(200);
    const endpointId = await mine.register(hook.url, ["prospect.created"]);
    const db = await getDb();
    const session = await sessionOf(mine);
    await setPortalEndpointPaused(db, session, endpointId, true);
    await setPortalEndpointPaused(db, session, endpointId, false);
    const { deliveryId } = await sendPortalTestEvent(db, session, endpointId, "prospect.created");
    await runDueJobs();
    await retryPortalDelivery(db, session, endpointId, deliveryId);
    await retryFromPortal(session, endpointId, { status: "failed", since: "2026-11-20T08:00" });
    await runDueJobs();
    const viaApi = await call("POST", `${mine.base}/${endpointId}/deliveries/retry`, {
      token: mine.token,
      body: { status: "failed", since: "2026-11-20T08:00:00Z" },
    });
    expect(viaApi.status).toBe(202);
    const rows = await db.select().from(auditLog).where(eq(auditLog.ownerId, mine.owner.id)).orderBy(auditLog.id);
    const portal = `client:${mine.client.clientId} portal:${session.id}`;
    expect(rows.map((row) => [row.action, row.actorLabel])).toEqual([
      ["portal_sessions.create", portal],
      ["webhook_endpoints.pause", portal],
      ["webhook_endpoints.resume", portal],
      ["webhook_endpoints.test_event", portal],
      ["deliveries.retry", portal],
      ["deliveries.bulk_retry", portal],
      ["deliveries.bulk_retry", `client:${mine.client.clientId}`],
    ]);
    expect(rows[1]).toMatchObject({ subjectType: "webhook_endpoint", subjectId: endpointId, before: { status: "active" }, after: { status: "disabled" } });
    expect(rows[3]).toMatchObject({ after: { event: "prospect.created", delivery_id: deliveryId } });
    expect(rows[4]).toMatchObject({ subjectType: "delivery", subjectId: deliveryId });
  });
});
