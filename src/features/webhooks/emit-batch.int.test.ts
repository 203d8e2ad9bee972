import { inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { emitEvents } from "./emit";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookDeliveries, webhookEvents } from "./webhooks.table";

const receiver = receiversOfThisFile();

describe("emitEvents (many events in one statement, as emitEvent emits each)", () => {
  it("records each subscribed event with its exact body and refs, one delivery per endpoint, nothing for the unsubscribed or another client's record, and delivers them", async () => {
    const a = await webhookPartner();
    const b = await webhookPartner();
    const hook = await receiver();
    const both = await a.register(hook.url, ["prospect.ready", "policy.expired"], "both");
    const ready = await a.register(hook.url, ["prospect.ready"], "ready");
    const bExpired = await b.register(hook.url, ["policy.expired"], "b");
    const db = await getDb();

    const answers = await emitEvents(db, [
      { ownerId: a.owner.id, ownerSlug: a.owner.slug, event: "prospect.ready", data: { id: 7, source_prospect_id: "sp-7" } },
      { ownerId: a.owner.id, ownerSlug: a.owner.slug, event: "policy.expired", data: { policy_number: "PIS-2026-777001", source_prospect_id: "sp-7" } },
      // Nobody at b listens to prospect.ready: not kept.
      { ownerId: b.owner.id, ownerSlug: b.owner.slug, event: "prospect.ready", data: { id: 8 } },
      { ownerId: b.owner.id, ownerSlug: b.owner.slug, event: "policy.expired", data: { policy_number: "PIS-2026-777002" } },
      // Another client's record: a's endpoints do not receive it.
      { ownerId: a.owner.id, ownerSlug: a.owner.slug, event: "prospect.ready", data: { id: 9 }, clientId: "someone-else" },
    ]);
    expect(answers.map((x) => x.deliveries)).toEqual([2, 1, 0, 1, 0]);
    expect(answers.map((x) => x.eventId === null)).toEqual([false, false, true, false, true]);

    const ids = answers.flatMap((x) => (x.eventId === null ? [] : [x.eventId]));
    const events = await db.select().from(webhookEvents).where(inArray(webhookEvents.id, ids));
    const byId = new Map(events.map((e) => [e.id, e]));
    expect(JSON.parse(byId.get(ids[0])?.body ?? "")).toEqual({
      event: "prospect.ready",
      property_owner_slug: a.owner.slug,
      data: { third_party_prospect: { id: 7, source_prospect_id: "sp-7" } },
    });
    expect(byId.get(ids[1])).toMatchObject({ ownerId: a.owner.id, event: "policy.expired", policyNumber: "PIS-2026-777001", sourceProspectId: "sp-7" });
    expect(JSON.parse(byId.get(ids[2])?.body ?? "")).toEqual({
      event: "policy.expired",
      property_owner_slug: b.owner.slug,
      data: { insurance_policy: { policy_number: "PIS-2026-777002" } },
    });

    const deliveries = await db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, ids));
    const endpointsOf = (eventId: number) =>
      deliveries
        .filter((d) => d.eventId === eventId)
        .map((d) => d.endpointId)
        .sort();
    expect(endpointsOf(ids[0])).toEqual([both, ready].sort());
    expect(endpointsOf(ids[1])).toEqual([both]);
    expect(endpointsOf(ids[2])).toEqual([bExpired]);

    await runDueJobs();
    expect(hook.received.map((r) => JSON.parse(r.rawBody).event).sort()).toEqual(["policy.expired", "policy.expired", "prospect.ready", "prospect.ready"]);
  });

  it("answers nothing and writes nothing for no events", async () => {
    expect(await emitEvents(await getDb(), [])).toEqual([]);
  });
});
