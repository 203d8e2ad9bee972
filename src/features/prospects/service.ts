import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { addJob } from "../../server/jobs/define-task";
import { encryptSecret } from "../../server/secrets";
import { TtlCache } from "../../server/ttl-cache";
import type { Owner } from "../owners/service";
import { isProspectComplete } from "./completeness";
import { emitProspectEvent } from "./events";
import { PROSPECT_MESSAGES } from "./messages";
import { prospectCheckEligibility } from "./prospect__check_eligibility";
import { type Prospect, prospects } from "./prospects.table";
import { findReferencedLocation, resolveLocation } from "./resolve";
import type { ProspectFields } from "./schemas";
import { type Source, sources } from "./sources.table";

export type { Source };
export type ProspectTransition = { prospect: Prospect; created: boolean; becameIncomplete: boolean };

/**
 * Sources are read on every prospect write and change only by an operator: a changed flow or
 * optional-ingest setting takes effect within SOURCE_CACHE_MS (docs/decisions.md, Caches).
 */
export const SOURCE_CACHE_MS = 5_000;
const clientSources = new TtlCache<Source>(SOURCE_CACHE_MS);

/** The source a client may write prospects under (spec Prospect `source`: a configured source). */
export async function sourceForClient(tx: Tx, code: string, clientId: string): Promise<Source> {
  const cacheKey = `${clientId} ${code}`;
  const cached = clientSources.get(cacheKey);
  if (cached) return cached;
  const [source] = await tx
    .select()
    .from(sources)
    .where(and(eq(sources.code, code), eq(sources.clientId, clientId)));
  if (!source) throw errors.invalidResource(PROSPECT_MESSAGES.invalid, "prospect", { source: [PROSPECT_MESSAGES.unknownSource] });
  clientSources.set(cacheKey, source);
  return source;
}

/** Maps present wire fields to columns (spec Prospect rules 2: only supplied fields are updated). */
function columnsFrom(fields: ProspectFields): Partial<typeof prospects.$inferInsert> {
  const map: Array<[keyof ProspectFields, keyof typeof prospects.$inferInsert]> = [
    ["email", "email"],
    ["phone", "phone"],
    ["first_name", "firstName"],
    ["last_name", "lastName"],
    ["birthdate", "birthdate"],
    ["lease_start_date", "leaseStartDate"],
    ["lease_end_date", "leaseEndDate"],
    ["monthly_rent_cents", "monthlyRentCents"],
    ["deposit_amount_cents", "depositAmountCents"],
    ["screening_result", "screeningResult"],
    ["employment_status", "employmentStatus"],
    ["yearly_income", "yearlyIncome"],
    ["has_ssn", "hasSsn"],
    ["education_level", "educationLevel"],
    ["citizenship", "citizenship"],
    ["pms_type", "pmsType"],
    ["pms_property_id", "pmsPropertyId"],
    ["pms_unit_id", "pmsUnitId"],
    ["pms_prospect_id", "pmsProspectId"],
    ["authorized_members", "authorizedMembers"],
  ];
  const columns: Record<string, unknown> = {};
  for (const [wire, column] of map) if (fields[wire] !== undefined) columns[column] = fields[wire];
  if (fields.guarantor_coverage !== undefined) columns.guarantorCoverage = fields.guarantor_coverage ?? false;
  if (fields.social_security_number !== undefined) {
    columns.ssnEncrypted = fields.social_security_number === null ? null : encryptSecret(fields.social_security_number.replace(/-/g, ""));
  }
  if (fields.terms_accepted_at) columns.termsAcceptedAt = new Date(fields.terms_accepted_at);
  return columns as Partial<typeof prospects.$inferInsert>;
}

/** Columns whose change re-runs eligibility; `terms_accepted_at` alone does not. */
const DECISION_INPUTS: Array<keyof Prospect> = [
  "email",
  "phone",
  "firstName",
  "lastName",
  "birthdate",
  "leaseStartDate",
  "leaseEndDate",
  "monthlyRentCents",
  "depositAmountCents",
  "guarantorCoverage",
  "screeningResult",
  "employmentStatus",
  "yearlyIncome",
  "hasSsn",
  "pmsType",
  "pmsPropertyId",
  "pmsUnitId",
  "propertyId",
  "unitId",
];

/**
 * spec Prospect rules 1-6 and Prospect status: upsert on (source, source_prospect_id) per owner.
 * A complete prospect goes to `processing` with its eligibility job added in the same transaction;
 * clearing a required field returns it to `incomplete` and clears the previous decision.
 */
export async function upsertProspect(
  tx: Tx,
  input: { owner: Owner; clientId: string; source: Source; fields: ProspectFields; occurredAt?: number },
): Promise<ProspectTransition> {
  const { owner, source, fields } = input;
  const sourceProspectId = fields.source_prospect_id as string;
  // The lock and two reads sent together cost one round trip: on the transaction's one connection
  // the server runs them in order, so both reads still start only once the lock is held.
  const [, existing, found] = await Promise.all([
    lockProspect(tx, owner.id, source.code, sourceProspectId),
    findProspect(tx, owner.id, source.code, sourceProspectId),
    findReferencedLocation(tx, owner, input.clientId, fields),
  ]);
  const current = {
    propertyId: existing?.propertyId ?? null,
    unitId: existing?.unitId ?? null,
    pmsType: existing?.pmsType ?? null,
    pmsPropertyId: existing?.pmsPropertyId ?? null,
    pmsUnitId: existing?.pmsUnitId ?? null,
  };
  const location = await resolveLocation(tx, owner, input.clientId, fields, current, found);
  const columns = { ...columnsFrom(fields), ...location, ...(input.occurredAt !== undefined ? { lastEventAt: input.occurredAt } : {}) };
  const draft = { ...(existing ?? defaults(owner, source, sourceProspectId)), ...columns } as Prospect;
  const complete = isProspectComplete(draft, source);
  const changed = !existing || DECISION_INPUTS.some((key) => JSON.stringify(existing[key]) !== JSON.stringify(draft[key]));
  const status: Prospect["status"] = !complete
    ? "incomplete"
    : changed || existing?.status === "incomplete" || existing?.status === "error"
      ? "processing"
      : existing.status;
  const reset = status !== existing?.status || status === "processing";
  const values = {
    ...columns,
    status,
    ...(reset ? { eligibility: null, effectiveCoverageAmountCents: null } : {}),
  };
  let prospect: Prospect;
  if (existing) {
    [prospect] = await tx
      .update(prospects)
      .set({ ...values, version: sql`${prospects.version} + 1`, updatedAt: sql`now()` })
      .where(eq(prospects.id, existing.id))
      .returning();
  } else {
    [prospect] = await tx
      .insert(prospects)
      .values({ ...defaults(owner, source, sourceProspectId), ...values })
      .returning();
  }
  const becameIncomplete = !!existing && existing.status !== "incomplete" && status === "incomplete";
  // The job and the events are independent statements of this transaction: sent together.
  await Promise.all([
    status === "processing"
      ? addJob(tx, prospectCheckEligibility, { prospectId: prospect.id, version: prospect.version }, { jobKey: `prospect-eligibility:${prospect.id}` })
      : undefined,
    // spec Event catalog: prospect.created on first creation; prospect.incomplete on the transition.
    existing ? undefined : emitProspectEvent(tx, "prospect.created", prospect, owner, source),
    becameIncomplete ? emitProspectEvent(tx, "prospect.incomplete", prospect, owner, source) : undefined,
  ]);
  return { prospect, created: !existing, becameIncomplete };
}

/**
 * Serializes writers of one prospect for the rest of the transaction (re-entrant): 20 concurrent
 * first POSTs create it exactly once, and ingested events of one prospect apply one at a time.
 */
export async function lockProspect(tx: Tx, ownerId: number, source: string, sourceProspectId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`prospect:${ownerId}:${source}:${sourceProspectId}`}))`);
}

function defaults(owner: Owner, source: Source, sourceProspectId: string) {
  return {
    ownerId: owner.id,
    sourceId: source.id,
    source: source.code,
    sourceProspectId,
    termsAcceptedAt: new Date(),
    guarantorCoverage: false,
  };
}

export async function findProspect(tx: Tx, ownerId: number, source: string, sourceProspectId: string): Promise<Prospect | undefined> {
  const [prospect] = await tx
    .select()
    .from(prospects)
    .where(and(eq(prospects.ownerId, ownerId), eq(prospects.source, source), eq(prospects.sourceProspectId, sourceProspectId)));
  return prospect;
}

/**
 * A prospect with its source, in one statement (GET prospect). Only a prospect of the caller's own
 * sources is found: another partner's answers exactly as an absent one (docs/decisions.md, Prospects).
 */
export async function findProspectWithSource(
  tx: Tx,
  ownerId: number,
  clientId: string,
  source: string,
  sourceProspectId: string,
): Promise<{ prospect: Prospect; source: Source } | undefined> {
  const [row] = await tx
    .select({ prospect: prospects, source: sources })
    .from(prospects)
    .innerJoin(sources, and(eq(sources.id, prospects.sourceId), eq(sources.clientId, clientId)))
    .where(and(eq(prospects.ownerId, ownerId), eq(prospects.source, source), eq(prospects.sourceProspectId, sourceProspectId)));
  return row;
}
