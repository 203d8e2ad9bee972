import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "../../server/db/client";
import { logger } from "../../server/log";
import { grant, newClient, unique } from "../../test/factories";
import { call } from "../../test/http";
import { runDueJobs } from "../../test/jobs";
import { createManagedOwner } from "../owners/service";
import { partnerOn } from "../owners/shared-owner-test-helpers";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";
import { ingestionEvents } from "./ingestion-events.table";
import { INGESTION_MESSAGES } from "./messages";

async function setup() {
  const partner = await prospectPartner();
  const ingestion = await newClient({ gateway: "ingestion", partnerClientId: partner.client.clientId });
  await grant(ingestion, partner.owner.id);
  const token = await ingestion.token();
  const emit = (body: unknown) => call("POST", "/ingest/events", { token, body });
  const event = (sourceProspectId: string, occurredAt: string, data: Record<string, unknown>) => ({
    type: "prospect.upserted",
    owner_slug: partner.owner.slug,
    source: partner.source,
    source_prospect_id: sourceProspectId,
    occurred_at: occurredAt,
    data,
  });
  return { ...partner, ingestion, emit, event };
}

async function events(clientId: string) {
  return (await getDb()).select().from(ingestionEvents).where(eq(ingestionEvents.clientId, clientId)).orderBy(ingestionEvents.id);
}

describe("POST /ingest/events (decisions §8)", () => {
  it("answers 202 with an empty body, stores the event, and applies it with the normalization rules", async () => {
    const { emit, event, get, source, ingestion } = await setup();
    const { source: _s, source_prospect_id: _i, ...data } = completeProspect(source, "ing-1");
    const answer = await emit(
      event("ing-1", "2026-11-20T10:00:00Z", { ...data, phone: "+1 (512) 555-0123", email: "  Rita@Example.COM ", birthdate: "1990-04-02T00:00:00Z" }),
    );
    expect(answer.status).toBe(202);
    expect(answer.text).toBe("");
    expect((await events(ingestion.clientId)).map((e) => e.status)).toEqual(["pending"]);
    await runDueJobs();
    expect((await events(ingestion.clientId)).map((e) => e.status)).toEqual(["applied"]);
    const prospect = (await get("ing-1")).body.prospect;
    expect(prospect).toMatchObject({ phone: "5125550123", email: "rita@example.com", birthdate: "1990-04-02", source_prospect_id: "ing-1" });
    await runDueJobs(); // the eligibility job the write added
    expect((await get("ing-1")).body.prospect.status).toBe("ready");
  });

  it("skips an event older than the last one applied to the prospect", async () => {
    const { emit, event, get, source, ingestion } = await setup();
    const { source: _s, source_prospect_id: _i, ...data } = completeProspect(source, "ing-2");
    await emit(event("ing-2", "2026-11-20T12:00:00Z", { ...data, first_name: "Newer" }));
    await runDueJobs();
    await emit(event("ing-2", "2026-11-20T11:00:00Z", { first_name: "Older" }));
    await runDueJobs();
    expect((await get("ing-2")).body.prospect.first_name).toBe("Newer");
    const stored = await events(ingestion.clientId);
    expect(stored.map((e) => [e.status, e.reasons])).toEqual([
      ["applied", null],
      ["skipped", { occurred_at: [INGESTION_MESSAGES.stale] }],
    ]);
  });

  it("keeps rejected events with their reasons, and still answers 202", async () => {
    const { emit, event, owner, source, ingestion } = await setup();
    const answers = await Promise.all([
      emit({ type: "prospect.deleted" }),
      emit(event("ing-3", "2026-11-20T10:00:00Z", { terms_accepted_at: "2026-11-01T00:00:00Z", phone: "12345" })),
      emit(event("ing-4", "2026-11-20T10:00:00Z", { first_name: "No terms" })),
      emit({ ...event("ing-5", "2026-11-20T10:00:00Z", { terms_accepted_at: "2026-11-01T00:00:00Z" }), source: "nope" }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202]);
    await runDueJobs();
    const stored = await events(ingestion.clientId);
    expect(stored.every((e) => e.status === "rejected")).toBe(true);
    const reasons = stored.map((e) => e.reasons ?? {});
    expect(reasons.some((r) => r.type?.includes(INGESTION_MESSAGES.unknownType))).toBe(true);
    expect(reasons.some((r) => r.phone?.includes("is not a valid phone number"))).toBe(true);
    expect(reasons.some((r) => r.terms_accepted_at?.includes(INGESTION_MESSAGES.termsRequired))).toBe(true);
    expect(reasons.some((r) => r.source?.includes(INGESTION_MESSAGES.unknownSource))).toBe(true);
    expect(owner.slug).toBeTruthy();
    expect(source).toBeTruthy();
  });

  it("shows rejected events with their reasons to signed-in console users only", async () => {
    const { emit } = await setup();
    await emit({ type: "prospect.deleted" });
    await runDueJobs();
    const db = await getDb();
    const base = { db, log: logger(), requestId: "test" };
    const operator = consoleRouter.createCaller({ ...base, user: { id: 1, email: "ops@example.com", role: "operator" } });
    const rejected = await operator.ingestion.events({ status: "rejected" });
    expect(rejected[0]).toMatchObject({ status: "rejected", type: "prospect.deleted", reasons: { type: [INGESTION_MESSAGES.unknownType] } });
    await expect(consoleRouter.createCaller({ ...base, user: null }).ingestion.events({})).rejects.toThrow();
  });

  it("rejects events for an owner the ingestion client is not granted", async () => {
    const { event, source } = await setup();
    const stranger = await newClient({ gateway: "ingestion" });
    const answer = await call("POST", "/ingest/events", {
      token: await stranger.token(),
      body: event("ing-6", "2026-11-20T10:00:00Z", { terms_accepted_at: "2026-11-01T00:00:00Z" }),
    });
    expect(answer.status).toBe(202);
    await runDueJobs();
    const [stored] = await events(stranger.clientId);
    expect(stored).toMatchObject({ status: "rejected", reasons: { owner_slug: [INGESTION_MESSAGES.notGranted] } });
    expect(source).toBeTruthy();
  });

  it("refuses partner tokens and unauthenticated calls with the gateway 401", async () => {
    const { token } = await setup();
    for (const bearer of [undefined, token]) {
      const answer = await call("POST", "/ingest/events", { token: bearer, body: {} });
      expect(answer).toMatchObject({ status: 401, body: { message: "Unauthorized" } });
    }
    const stored = await (await getDb()).select().from(ingestionEvents).where(eq(ingestionEvents.status, "pending"));
    expect(stored).toEqual([]);
  });
});

describe("ingestion on an owner shared by partners (docs/decisions.md, Prospects)", () => {
  it("resolves an ingested prospect against the buildings granted to the partner owning its source", async () => {
    const db = await getDb();
    const owner = await createManagedOwner(db, { name: unique("Managed"), externalOrgId: unique("org") });
    const partner = await partnerOn(owner, unique("P"));
    const ingestion = await newClient({ gateway: "ingestion", partnerClientId: partner.client.clientId });
    await grant(ingestion, owner.id);
    const { source: _s, source_prospect_id: _i, ...data } = partner.prospect("ing-shared");
    const emitted = await call("POST", "/ingest/events", {
      token: await ingestion.token(),
      body: {
        type: "prospect.upserted",
        owner_slug: owner.slug,
        source: partner.source,
        source_prospect_id: "ing-shared",
        occurred_at: "2026-11-20T10:00:00Z",
        data,
      },
    });
    expect(emitted.status).toBe(202);
    await runDueJobs();
    await runDueJobs();
    const read = await partner.getProspect(partner.source, "ing-shared");
    expect(read.body.prospect).toMatchObject({ status: "ready", enrollment_url: expect.stringContaining("/enroll/") });
  });
});
