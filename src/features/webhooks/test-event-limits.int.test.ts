import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { emitEvent } from "./emit";
import { WEBHOOK_MESSAGES } from "./messages";
import { TEST_EVENTS_PER_MINUTE } from "./test-events";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookDeliveries } from "./webhooks.table";

const receiver = receiversOfThisFile();

/** Test events and recovery stay within the limits (docs/decisions.md, "Second security review"). */
describe("test events and recovery within limits", () => {
  it("takes at most TEST_EVENTS_PER_MINUTE test events per endpoint a minute: then 429 with Retry-After, storing nothing", async () => {
    const partner = await webhookPartner();
    const endpoint = await partner.register("https://localhost:9/hook", ["prospect.created"]);
    const other = await partner.register("https://localhost:9/other", ["prospect.created"]);
    const send = (id: string) => call("POST", `${partner.base}/${id}/test`, { token: partner.token, body: { event: "prospect.created" } });
    for (let i = 0; i < TEST_EVENTS_PER_MINUTE; i++) expect((await send(endpoint)).status).toBe(202);
    const refused = await send(endpoint);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ status_code: 429, error: WEBHOOK_MESSAGES.testEventsTooMany(TEST_EVENTS_PER_MINUTE) });
    const wait = Number(refused.headers.get("retry-after"));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(await (await getDb()).select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint))).toHaveLength(TEST_EVENTS_PER_MINUTE);
    // Per endpoint: another endpoint still takes them; a minute later this one does again.
    expect((await send(other)).status).toBe(202);
    await (await getDb()).execute(sql`update webhook_deliveries set created_at = created_at - interval '61 seconds' where endpoint_id = ${endpoint}`);
    expect((await send(endpoint)).status).toBe(202);
  });

  it("recovers a retrying delivery without giving it new attempts: its count is kept, the 25th failure fails it", async () => {
    const partner = await webhookPartner();
    const hook = await receiver(500);
    const endpoint = await partner.register(hook.url, ["prospect.created"]);
    const db = await getDb();
    await emitEvent(db, { ownerId: partner.owner.id, ownerSlug: partner.owner.slug, event: "prospect.created", data: { id: "kept" } });
    await runDueJobs();
    const [first] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint));
    expect(first).toMatchObject({ status: "retrying", attemptNumber: 1 });
    // As after 24 failed attempts, its next one far ahead.
    await db.execute(sql`update webhook_deliveries set attempt_number = 24, next_retry_at = now() + interval '1 hour' where id = ${first.id}`);
    const recovery = await call("POST", `${partner.base}/${endpoint}/deliveries/retry`, {
      token: partner.token,
      body: { status: "retrying", since: new Date(Date.now() - 3_600_000).toISOString() },
    });
    expect(recovery.status).toBe(202);
    expect(recovery.body).toMatchObject({ matched: 1 });
    await runDueJobs(); // the recovery's job, then the attempt it queued: the 25th, which fails
    const [after] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, first.id));
    expect(after).toMatchObject({ status: "failed", attemptNumber: 25 });
  });
});
