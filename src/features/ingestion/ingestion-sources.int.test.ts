import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "../../server/db/client";
import { logger } from "../../server/log";
import { grant, newClient, type TestClient, unique } from "../../test/factories";
import { call } from "../../test/http";
import { runDueJobs } from "../../test/jobs";
import { completeProspect, type ProspectAnswer, prospectPartner } from "../prospects/prospect-test-helpers";
import { prospects } from "../prospects/prospects.table";
import { createSource } from "../prospects/sources";
import { ingestionEvents } from "./ingestion-events.table";
import { INGESTION_MESSAGES } from "./messages";

/**
 * decisions §15 Ingestion: an ingestion client writes only through its partner's sources (or its
 * own), and an `occurred_at` more than 300 s ahead of the service's clock is rejected. Everything
 * through the real ingestion gateway, the real job and the real Partner API.
 */

/** Partner A with a ready prospect on its owner; partner B granted the same owner, with its own source and ingestion client. */
async function twoPartners() {
  const a = await prospectPartner();
  const answer = await a.post(completeProspect(a.source, "victim"));
  expect(answer.status).toBe(200);
  await runDueJobs();
  const victim = (await a.get("victim")).body.prospect;
  expect(victim).toMatchObject({ status: "ready", enrollment_url: expect.any(String), hosted_enrollment_url: expect.any(String) });
  const b = await newClient();
  await grant(b, a.owner.id);
  const bSource = unique("srcb").replace("-", "_");
  await createSource(await getDb(), { code: bSource, clientId: b.clientId });
  const ingestion = await newClient({ gateway: "ingestion", partnerClientId: b.clientId });
  await grant(ingestion, a.owner.id);
  return { a, b, bSource, ingestion, victim };
}

function emitter(client: TestClient, ownerSlug: string) {
  return async (source: string, sourceProspectId: string, data: Record<string, unknown>, occurredAt = new Date().toISOString()) => {
    const answer = await call("POST", "/ingest/events", {
      token: await client.token(),
      body: { type: "prospect.upserted", owner_slug: ownerSlug, source, source_prospect_id: sourceProspectId, occurred_at: occurredAt, data },
    });
    expect(answer.status).toBe(202);
  };
}

async function storedOf(clientId: string) {
  return (await getDb()).select().from(ingestionEvents).where(eq(ingestionEvents.clientId, clientId)).orderBy(ingestionEvents.id);
}

const takeover = {
  first_name: "Mallory",
  last_name: "Taker",
  email: "mallory@example.net",
  phone: "2125550199",
  monthly_rent_cents: 99,
  terms_accepted_at: "2026-11-02T10:00:00Z",
};

describe("ingestion writes only through the sender's own sources (decisions §15 Ingestion)", () => {
  it("rejects an event naming another partner's source with reason source, and leaves that partner's prospect as it was", async () => {
    const { a, ingestion, victim } = await twoPartners();
    const [row] = await (await getDb())
      .select()
      .from(prospects)
      .where(and(eq(prospects.source, a.source), eq(prospects.sourceProspectId, "victim")));
    const emit = emitter(ingestion, a.owner.slug);
    await emit(a.source, "victim", takeover);
    await emit(a.source, "victim", { ...takeover, unit: null, property: null }, new Date(Date.now() + 60_000).toISOString());
    await emit(a.source, "intruder", { ...completeProspect(a.source, "intruder"), source: undefined, source_prospect_id: undefined });
    await runDueJobs();
    await runDueJobs();
    const stored = await storedOf(ingestion.clientId);
    expect(stored.map((e) => [e.status, e.reasons, e.prospectId])).toEqual(Array(3).fill(["rejected", { source: [INGESTION_MESSAGES.foreignSource] }, null]));
    // Every field, both enrollment URLs, and the stored row itself (its version counts every write).
    expect((await a.get("victim")).body.prospect).toEqual(victim);
    const [after] = await (await getDb()).select().from(prospects).where(eq(prospects.id, row.id));
    expect(after).toEqual(row);
    expect((await a.get("intruder")).status).toBe(404);
  });

  it("applies an event naming its partner's source, or a source created for the ingestion client itself", async () => {
    const { a, b, bSource, ingestion } = await twoPartners();
    const emit = emitter(ingestion, a.owner.slug);
    const { source: _s, source_prospect_id: _i, ...data } = completeProspect(bSource, "mine");
    await emit(bSource, "mine", data);
    const ownSource = unique("own").replace("-", "_");
    await createSource(await getDb(), { code: ownSource, clientId: ingestion.clientId });
    await emit(ownSource, "own-1", data);
    await runDueJobs();
    expect((await storedOf(ingestion.clientId)).map((e) => [e.status, e.reasons])).toEqual([
      ["applied", null],
      ["applied", null],
    ]);
    const read = await call<ProspectAnswer>("GET", `/api/partners/${a.owner.slug}/prospects/${bSource}/mine`, { token: await b.token() });
    expect(read.body.prospect).toMatchObject({ source: bSource, source_prospect_id: "mine", first_name: "Rita" });
  });

  it("keeps an ingestion client without a partner (created before the rule) to its own sources", async () => {
    const { a, victim } = await twoPartners();
    const legacy = await newClient({ gateway: "ingestion" });
    await grant(legacy, a.owner.id);
    const ownSource = unique("legacy").replace("-", "_");
    await createSource(await getDb(), { code: ownSource, clientId: legacy.clientId });
    const emit = emitter(legacy, a.owner.slug);
    await emit(a.source, "victim", takeover);
    const { source: _s, source_prospect_id: _i, ...data } = completeProspect(ownSource, "legacy-1");
    await emit(ownSource, "legacy-1", data);
    await runDueJobs();
    expect((await storedOf(legacy.clientId)).map((e) => [e.status, e.reasons])).toEqual([
      ["rejected", { source: [INGESTION_MESSAGES.foreignSource] }],
      ["applied", null],
    ]);
    expect((await a.get("victim")).body.prospect).toEqual(victim);
  });

  it("works for an ingestion client created in the console with its partner client", async () => {
    const { a, b, bSource } = await twoPartners();
    const operator = consoleRouter.createCaller({
      db: await getDb(),
      log: logger(),
      requestId: "t",
      user: { id: 1, email: "ops@example.com", role: "operator" },
    });
    const created = await operator.accessClients.create({ name: "B events", gateway: "ingestion", partner_client_id: b.clientId });
    expect(created.client).toMatchObject({ gateway: "ingestion", partner_client_id: b.clientId });
    await operator.accessClients.grantOwner({ client_id: created.client.client_id, owner_slug: a.owner.slug });
    const token = await call<{ access_token: string }>("POST", "/ingest/token", {
      body: {
        grant_type: "client_credentials",
        client_id: created.client.client_id,
        client_secret: created.client_secret,
        audience: "urn:pis:ingestion:staging",
      },
    });
    const client = { ...b, clientId: created.client.client_id, token: async () => token.body.access_token };
    const emit = emitter(client, a.owner.slug);
    const { source: _s, source_prospect_id: _i, ...data } = completeProspect(bSource, "console-1");
    await emit(bSource, "console-1", data);
    await emit(a.source, "victim", takeover);
    await runDueJobs();
    expect((await storedOf(created.client.client_id)).map((e) => [e.status, e.reasons])).toEqual([
      ["applied", null],
      ["rejected", { source: [INGESTION_MESSAGES.foreignSource] }],
    ]);
  });
});

describe("occurred_at ahead of the service's clock (decisions §15 Ingestion)", () => {
  it("rejects an event 6 minutes ahead and changes nothing; accepts one 4 minutes ahead", async () => {
    const { a, bSource, ingestion } = await twoPartners();
    const emit = emitter(ingestion, a.owner.slug);
    const { source: _s, source_prospect_id: _i, ...data } = completeProspect(bSource, "clock");
    const ahead = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    await emit(bSource, "clock", { ...data, first_name: "Future" }, ahead(6));
    await runDueJobs();
    const [rejected] = await storedOf(ingestion.clientId);
    expect(rejected).toMatchObject({ status: "rejected", reasons: { occurred_at: [INGESTION_MESSAGES.future] }, prospectId: null });
    expect(await (await getDb()).select().from(prospects).where(eq(prospects.sourceProspectId, "clock"))).toEqual([]);
    // Refused, it freezes nothing: an event of now still applies.
    await emit(bSource, "clock", { ...data, first_name: "Now" });
    await emit(bSource, "clock", { first_name: "Soon" }, ahead(4));
    await runDueJobs();
    expect((await storedOf(ingestion.clientId)).map((e) => e.status)).toEqual(["rejected", "applied", "applied"]);
    const [row] = await (await getDb()).select().from(prospects).where(eq(prospects.sourceProspectId, "clock"));
    expect(row.firstName).toBe("Soon");
  });
});
