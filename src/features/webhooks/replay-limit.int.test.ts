import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { unique } from "../../test/factories";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { REPLAY_INTERVAL_SECONDS } from "./deliveries";
import { emitEvent } from "./emit";
import { WEBHOOK_MESSAGES } from "./messages";
import { createProvider } from "./providers";
import { webhookDeliveryReplays } from "./replays.table";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookDeliveries } from "./webhooks.table";

const receiver = receiversOfThisFile();

type Delivery = { delivery: { id: string; status: string } };

/** A delivered delivery under an owner route or a provider route, and the path of its delivery routes. */
async function delivered(scope: "owner" | "provider") {
  const partner = await webhookPartner();
  const hook = await receiver();
  let endpoints = partner.base;
  if (scope === "provider") {
    const code = unique("replay");
    await createProvider(await getDb(), { code, clientId: partner.client.clientId, ownerSlugs: [partner.owner.slug] });
    endpoints = `/api/partners/providers/${code}/webhooks/endpoints`;
  }
  const created = await call<{ endpoint: { id: string } }>("POST", endpoints, {
    token: partner.token,
    body: { endpoint: { name: "replays", destination_url: hook.url, events: ["prospect.ready"] } },
  });
  await emitEvent(await getDb(), { ownerId: partner.owner.id, ownerSlug: partner.owner.slug, event: "prospect.ready", data: { id: unique("p") } });
  await runDueJobs();
  const path = `${endpoints}/${created.body.endpoint.id}/deliveries`;
  const listed = await call<{ deliveries: Array<{ id: string; status: string }> }>("GET", path, { token: partner.token });
  expect(listed.body.deliveries).toEqual([expect.objectContaining({ status: "delivered" })]);
  const id = listed.body.deliveries[0].id;
  const sent = () => hook.received.filter((request) => request.headers["x-webhook-delivery"] === id).length;
  const retry = () => call<Delivery>("POST", `${path}/${id}/retry`, { token: partner.token });
  const status = async () => (await call<Delivery>("GET", `${path}/${id}`, { token: partner.token })).body.delivery.status;
  return { id, sent, retry, status };
}

/** Sets a delivery's status and its last replay as a test fixture (the schedule's end, a minute passing). */
async function setRow(id: string, fields: { status?: "failed"; replayedSecondsAgo?: number }) {
  const db = await getDb();
  if (fields.status) await db.update(webhookDeliveries).set({ status: fields.status }).where(eq(webhookDeliveries.id, id));
  if (fields.replayedSecondsAgo !== undefined)
    await db
      .update(webhookDeliveryReplays)
      .set({ replayedAt: sql`now() - make_interval(secs => ${fields.replayedSecondsAgo})` })
      .where(eq(webhookDeliveryReplays.deliveryId, id));
}

describe("replaying a delivered delivery through the API (decisions §15: once a minute)", () => {
  for (const scope of ["owner", "provider"] as const) {
    it(`answers 429 with Retry-After to a second replay within the minute, changes nothing, and replays again once it passed (${scope} route)`, async () => {
      const { id, sent, retry, status } = await delivered(scope);
      expect((await retry()).body).toMatchObject({ status_code: 200, delivery: { id, status: "pending" } });
      await runDueJobs();
      expect([await status(), sent()]).toEqual(["delivered", 2]);

      const refused = await retry();
      expect([refused.status, refused.body]).toEqual([429, { status_code: 429, error: WEBHOOK_MESSAGES.replayTooSoon }]);
      const wait = Number(refused.headers.get("retry-after"));
      expect(Number.isInteger(wait) && wait >= 1 && wait <= REPLAY_INTERVAL_SECONDS).toBe(true);
      await runDueJobs();
      expect([await status(), sent()]).toEqual(["delivered", 2]);

      // Forty seconds later the wait left is about twenty seconds.
      await setRow(id, { replayedSecondsAgo: 40 });
      const later = await retry();
      expect(later.status).toBe(429);
      expect(Number(later.headers.get("retry-after"))).toBeGreaterThanOrEqual(19);
      expect(Number(later.headers.get("retry-after"))).toBeLessThanOrEqual(20);

      // The minute has passed (the stored mark moved back): the replay goes through again.
      await setRow(id, { replayedSecondsAgo: REPLAY_INTERVAL_SECONDS + 1 });
      expect((await retry()).body).toMatchObject({ status_code: 200, delivery: { id, status: "pending" } });
      expect((await retry()).status).toBe(409); // still scheduled: the 409 of before, not a 429
      await runDueJobs();
      expect([await status(), sent()]).toEqual(["delivered", 3]);
    });
  }

  it("lets only one of two simultaneous replays through (the other finds it scheduled: 409)", async () => {
    const { retry, sent } = await delivered("owner");
    const answers = await Promise.all([retry(), retry()]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    await runDueJobs();
    expect(sent()).toBe(2);
  });

  it("does not limit the retry of a failed delivery", async () => {
    const { id, retry, sent } = await delivered("owner");
    for (const round of [1, 2, 3]) {
      await setRow(id, { status: "failed" });
      expect([round, (await retry()).status]).toEqual([round, 200]);
      await runDueJobs();
    }
    expect(sent()).toBe(4);
  });
});
