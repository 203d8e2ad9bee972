import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../server/db/client";
import { appErrorOf, fieldMessagesOf } from "../../server/errors";
import { fieldErrorsOf } from "../../server/http/input-errors";
import { isOwnerGranted, sourceOwnersOfIngestion } from "../auth/clients";
import { enterOwnerWrite } from "../owners/merge/gate";
import { findOwnerBySlug } from "../owners/service";
import { prospectFields } from "../prospects/schemas";
import { findProspect, lockProspect, type ProspectTransition, upsertProspect } from "../prospects/service";
import { sources } from "../prospects/sources.table";
import { type IngestionEvent, ingestionEvents } from "./ingestion-events.table";
import { INGESTION_MESSAGES } from "./messages";
import { normalizeProspectData } from "./normalize";
import { unsealNeverEchoed, withoutNeverEchoed } from "./sealed-fields";

const Envelope = z.object({
  type: z.literal("prospect.upserted", { error: INGESTION_MESSAGES.unknownType }),
  owner_slug: z.string().min(1),
  source: z.string().min(1),
  source_prospect_id: z.string().min(1),
  occurred_at: z.iso.datetime({ offset: true }),
  data: z.record(z.string(), z.unknown()).default({}),
});

/** decisions §15 Ingestion: an `occurred_at` further ahead of the service's clock at receipt is refused. */
export const MAX_OCCURRED_AT_AHEAD_MS = 300_000;

type Outcome = { status: "applied" | "skipped" | "rejected"; reasons?: Record<string, string[]>; transition?: ProspectTransition };

class Rejection extends Error {
  constructor(readonly reasons: Record<string, string[]>) {
    super("rejected");
  }
}
const reject = (field: string, message: string): never => {
  throw new Rejection({ [field]: [message] });
};

/**
 * decisions §8: applies one stored event, writing the same records as the prospect API keyed on
 * (source, source_prospect_id). An event older than the last applied one is skipped; an invalid one
 * is rejected with its reasons. Runs inside the job's transaction.
 */
export async function applyIngestionEvent(tx: Tx, event: IngestionEvent): Promise<Outcome> {
  let outcome: Outcome;
  try {
    outcome = await apply(tx, event);
  } catch (error) {
    if (error instanceof Rejection) outcome = { status: "rejected", reasons: error.reasons };
    else {
      const known = appErrorOf(error);
      if (known?.kind !== "invalid") throw error;
      outcome = { status: "rejected", reasons: fieldMessagesOf(known) };
    }
  }
  // A processed event keeps no never-echoed value, sealed or not: the prospect holds what was
  // applied (docs/decisions.md, Hardening: ingestion; `withoutNeverEchoed` for events stored before it).
  const scrubbed = withoutNeverEchoed(event.body);
  await tx
    .update(ingestionEvents)
    .set({
      status: outcome.status,
      reasons: outcome.reasons ?? null,
      prospectId: outcome.transition?.prospect.id ?? null,
      processedAt: sql`now()`,
      sealedFields: null,
      ...(scrubbed ? { body: scrubbed } : {}),
    })
    .where(eq(ingestionEvents.id, event.id));
  return outcome;
}

async function apply(tx: Tx, event: IngestionEvent): Promise<Outcome> {
  const envelope = Envelope.safeParse(unsealNeverEchoed(event.body, event.sealedFields));
  if (!envelope.success) throw new Rejection(fieldErrorsOf(envelope.error));
  const { owner_slug, source: code, source_prospect_id, occurred_at, data } = envelope.data;
  const occurredAt = Date.parse(occurred_at);
  // Measured against the receipt, not the job's start, so a busy queue cannot turn a refusal into a
  // freeze: a later-applied event would otherwise skip every real one until then.
  if (occurredAt > event.receivedAt.getTime() + MAX_OCCURRED_AT_AHEAD_MS) reject("occurred_at", INGESTION_MESSAGES.future);
  const owner = (await findOwnerBySlug(tx, owner_slug)) ?? reject("owner_slug", INGESTION_MESSAGES.unknownOwner);
  // During an owner merge this waits for it; after it, the survivor (owners/merge/gate.ts).
  await enterOwnerWrite(tx, owner);
  if (!(await isOwnerGranted(tx, event.clientId, owner.id))) reject("owner_slug", INGESTION_MESSAGES.notGranted);
  const [source] = await tx.select().from(sources).where(eq(sources.code, code));
  if (!source) reject("source", INGESTION_MESSAGES.unknownSource);
  // decisions §15 Ingestion: only the sender's partner's sources, or its own; source codes are in
  // every enrollment URL, so naming one proves nothing.
  if (!(await sourceOwnersOfIngestion(tx, event.clientId)).includes(source.clientId)) reject("source", INGESTION_MESSAGES.foreignSource);
  // Under the prospect's lock, so the staleness check and the write see the same last event.
  await lockProspect(tx, owner.id, code, source_prospect_id);
  const existing = await findProspect(tx, owner.id, code, source_prospect_id);
  if (existing?.lastEventAt != null && occurredAt < existing.lastEventAt) return { status: "skipped", reasons: { occurred_at: [INGESTION_MESSAGES.stale] } };
  const normalized = normalizeProspectData(data);
  if (!existing && normalized.terms_accepted_at == null) reject("terms_accepted_at", INGESTION_MESSAGES.termsRequired);
  const fields = prospectFields.safeParse({
    ...normalized,
    source: code,
    source_prospect_id,
    terms_accepted_at: normalized.terms_accepted_at ?? existing?.termsAcceptedAt.toISOString(),
  });
  if (!fields.success) throw new Rejection(fieldErrorsOf(fields.error));
  // The prospect is the source's partner's: it resolves against that client's building grants.
  const transition = await upsertProspect(tx, { owner, clientId: source.clientId, source, fields: fields.data, occurredAt });
  return { status: "applied", transition };
}

export async function pendingEvent(tx: Tx, id: number): Promise<IngestionEvent | undefined> {
  const [event] = await tx
    .select()
    .from(ingestionEvents)
    .where(and(eq(ingestionEvents.id, id), eq(ingestionEvents.status, "pending")))
    .for("update");
  return event;
}
