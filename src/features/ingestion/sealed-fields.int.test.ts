import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { addJob } from "../../server/jobs/define-task";
import { decryptSecret } from "../../server/secrets";
import { grant, newClient } from "../../test/factories";
import { call } from "../../test/http";
import { runDueJobs } from "../../test/jobs";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";
import { prospects } from "../prospects/prospects.table";
import { ingestionEventApply } from "./ingestion_event__apply";
import { ingestionEvents } from "./ingestion-events.table";

/**
 * docs/decisions.md, Hardening: ingestion: a stored ingestion event holds none of the never-echoed
 * prospect fields (spec Prospect) in the clear, before or after its job runs, and the prospect still
 * gets them as the Partner API stores them (the SSN sealed).
 */

const SSN = "987-65-4321";
const never = { social_security_number: SSN, education_level: "edu-7f3q", citizenship: "cit-9k2w", terms_accepted_at: "2026-11-03T08:07:06Z" };
/** Every form a never-echoed value could take in the clear. */
const clearForms = [SSN, SSN.replaceAll("-", ""), never.education_level, never.citizenship, "2026-11-03T08:07:06"];

async function setup() {
  const partner = await prospectPartner();
  const ingestion = await newClient({ gateway: "ingestion", partnerClientId: partner.client.clientId });
  await grant(ingestion, partner.owner.id);
  const emit = async (body: Record<string, unknown>) => {
    const answer = await call("POST", "/ingest/events", { token: await ingestion.token(), body });
    expect(answer.status).toBe(202);
  };
  const envelope = (sourceProspectId: string, data: Record<string, unknown>) => ({
    type: "prospect.upserted",
    owner_slug: partner.owner.slug,
    source: partner.source,
    source_prospect_id: sourceProspectId,
    occurred_at: new Date().toISOString(),
    data,
  });
  return { ...partner, ingestion, emit, envelope };
}

/** Every row of the ingestion tables, and every queued job, as the text PostgreSQL holds. */
async function everythingStored(): Promise<string> {
  const db = await getDb();
  const events = await db.execute<{ row: string }>(sql`select row_to_json(e)::text as row from ingestion_events e`);
  const jobs = await db.execute<{ row: string }>(sql`select row_to_json(j)::text as row from graphile_worker.jobs j`);
  return [...events, ...jobs].map((r) => r.row).join("\n");
}

async function prospectRow(source: string, sourceProspectId: string) {
  const [row] = await (await getDb())
    .select()
    .from(prospects)
    .where(and(eq(prospects.source, source), eq(prospects.sourceProspectId, sourceProspectId)));
  return row;
}

describe("never-echoed fields sent through ingestion are never stored in the clear", () => {
  it("stores the event without them, and the prospect gets them as the Partner API stores them", async () => {
    const { emit, envelope, source } = await setup();
    const { source: _s, source_prospect_id: _i, ...data } = completeProspect(source, "sealed-1", never);
    await emit(envelope("sealed-1", data));
    const pending = await everythingStored();
    expect(pending).toContain("sealed-1");
    for (const form of clearForms) expect(pending).not.toContain(form);

    await runDueJobs();
    const [event] = await (await getDb()).select().from(ingestionEvents).where(sql`${ingestionEvents.body}->>'source_prospect_id' = 'sealed-1'`);
    expect(event).toMatchObject({ status: "applied", sealedFields: null });
    const processed = await everythingStored();
    for (const form of clearForms) expect(processed).not.toContain(form);

    const prospect = await prospectRow(source, "sealed-1");
    expect(prospect).toMatchObject({ hasSsn: true, educationLevel: never.education_level, citizenship: never.citizenship });
    expect(prospect.termsAcceptedAt.toISOString()).toBe("2026-11-03T08:07:06.000Z");
    expect(prospect.ssnEncrypted).not.toContain("4321");
    expect(decryptSecret(prospect.ssnEncrypted ?? "")).toBe(SSN.replaceAll("-", ""));
  });

  it("seals them at the top level of the body too, and keeps them out of a rejected event", async () => {
    const { emit, envelope } = await setup();
    await emit({ ...envelope("sealed-2", { first_name: "No terms" }), ...never, source: "nope" });
    expect(await everythingStored()).not.toContain(SSN);
    await runDueJobs();
    const stored = await everythingStored();
    expect(stored).toContain("sealed-2");
    for (const form of clearForms) expect(stored).not.toContain(form);
  });

  it("scrubs an event stored in the clear before the rule once its job applies it", async () => {
    const { envelope, ingestion, source } = await setup();
    const { source: _s, source_prospect_id: _i, ...data } = completeProspect(source, "sealed-3", never);
    const db = await getDb();
    await db.transaction(async (tx) => {
      const [event] = await tx
        .insert(ingestionEvents)
        .values({ clientId: ingestion.clientId, body: envelope("sealed-3", data) })
        .returning({ id: ingestionEvents.id });
      await addJob(tx, ingestionEventApply, { eventId: event.id });
    });
    expect(await everythingStored()).toContain(SSN);
    await runDueJobs();
    const stored = await everythingStored();
    expect(stored).toContain("sealed-3");
    for (const form of clearForms) expect(stored).not.toContain(form);
    expect(decryptSecret((await prospectRow(source, "sealed-3")).ssnEncrypted ?? "")).toBe(SSN.replaceAll("-", ""));
  });

  it("the migration scrubs events processed before the rule, keeping everything else of their bodies", async () => {
    const { envelope, ingestion, source } = await setup();
    const { source: _s, source_prospect_id: _i, ...data } = completeProspect(source, "sealed-4", never);
    const legacy = { ...envelope("sealed-4", data), citizenship: never.citizenship };
    const db = await getDb();
    const rows = await db
      .insert(ingestionEvents)
      .values([
        { clientId: ingestion.clientId, body: legacy, status: "applied" as const },
        { clientId: ingestion.clientId, body: legacy, status: "rejected" as const },
        { clientId: ingestion.clientId, body: { ...legacy, data: "not an object" }, status: "rejected" as const },
        { clientId: ingestion.clientId, body: legacy },
      ])
      .returning({ id: ingestionEvents.id });
    const file = path.resolve("drizzle", "0030_scrub_ingestion_never_echoed.sql");
    await db.execute(sql.raw(readFileSync(file, "utf8")));
    const after = await db
      .select()
      .from(ingestionEvents)
      .where(
        inArray(
          ingestionEvents.id,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(ingestionEvents.id);
    const { social_security_number: _n, education_level: _e, citizenship: _c, terms_accepted_at: _t, ...echoed } = data;
    const { citizenship: _top, ...envelopeRest } = legacy;
    expect(after.map((e) => e.body)).toEqual([
      { ...envelopeRest, data: echoed },
      { ...envelopeRest, data: echoed },
      { ...envelopeRest, data: "not an object" },
      legacy, // pending: its job scrubs it (above)
    ]);
  });
});
