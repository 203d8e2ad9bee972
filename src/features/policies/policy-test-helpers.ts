import { and, eq } from "drizzle-orm";
import { getDb } from "../../server/db/client";
import { call } from "../../test/http";
import { receiversOfThisFile, startReceiver } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { DEFAULT_UNDERWRITING_RULES } from "../enrollment/underwriting/rules";
import { type UnderwritingOutcome, underwrite } from "../enrollment/underwriting/underwrite";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";
import { type Prospect, prospects } from "../prospects/prospects.table";
import { properties, units } from "../roster/roster.table";
import { formatPolicyNumber } from "./coverage";
import { type Policy, policies } from "./policies.table";

export const APPLICATION_AND_POLICY_EVENTS = [
  "policy_application.created",
  "policy_application.quoted",
  "policy_application.declined",
  "policy_application.submitted",
  "policy.created",
  "policy.documents_updated",
];

export type Delivered = { event: string; property_owner_slug: string; data: Record<string, Record<string, unknown>> };

/**
 * A partner whose owner has a roster, an endpoint subscribed to every application and policy event
 * on a local HTTPS receiver, and `ready(extra)` that posts a complete prospect, runs its eligibility
 * and answers the prospect row.
 */
export async function enrollmentPartner(options: Parameters<typeof prospectPartner>[0] = {}, startHook: typeof startReceiver = startReceiver) {
  const partner = await prospectPartner(options);
  const hook = await startHook();
  await call("POST", `${partner.base}/webhooks/endpoints`, {
    token: partner.token,
    body: { endpoint: { name: "policies", destination_url: hook.url, events: APPLICATION_AND_POLICY_EVENTS } },
  });
  const delivered = () => hook.received.map((r) => JSON.parse(r.rawBody) as Delivered);
  const ready = async (sourceProspectId: string, extra: Record<string, unknown> = {}): Promise<Prospect> => {
    await partner.post(completeProspect(partner.source, sourceProspectId, extra));
    await runDueJobs();
    return prospectRow(partner.owner.id, sourceProspectId);
  };
  return { ...partner, hook, delivered, ready };
}

export async function prospectRow(ownerId: number, sourceProspectId: string): Promise<Prospect> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(prospects)
    .where(and(eq(prospects.ownerId, ownerId), eq(prospects.sourceProspectId, sourceProspectId)));
  return row;
}

/** What underwriting answers for the prospect under the default rules (docs/underwriting.md). */
export function defaultOutcome(prospect: Prospect): UnderwritingOutcome {
  return underwrite({
    prospect: { ...prospect, coverageAmountCents: prospect.effectiveCoverageAmountCents },
    owner: { maxCoverageAmountCents: null },
    coverageSettings: {},
    environment: "staging",
    rules: DEFAULT_UNDERWRITING_RULES,
  });
}

let serial = 900_000;

/** A bare policy row on a fresh owner's building (for tests of what hangs off a policy). */
export async function insertBarePolicy(): Promise<number> {
  const partner = await prospectPartner();
  const db = await getDb();
  const [unit] = await db
    .select({ unitId: units.id, propertyId: properties.id })
    .from(units)
    .innerJoin(properties, eq(properties.id, units.propertyId))
    .where(eq(properties.ownerId, partner.owner.id));
  const [policy] = await db
    .insert(policies)
    .values({
      policyNumber: formatPolicyNumber(1999, serial++),
      ownerId: partner.owner.id,
      propertyId: unit.propertyId,
      unitId: unit.unitId,
      status: "active",
      productType: "security_deposit_insurance",
      coverageAmountCents: 150000,
      coverageStartDate: "2026-12-01",
      coverageEndDate: "2027-11-30",
      premiumCents: 26250,
      cadence: "upfront",
    })
    .returning({ id: policies.id });
  return policy.id;
}

/**
 * A guarantee policy that did not come from a prospect (no `source_prospect_id`), on the unit of a
 * policy already issued: the payload's optional-field rules (product_version present, the
 * prospect's id omitted).
 */
export async function insertGuaranteePolicyBeside(issued: Pick<Policy, "ownerId" | "propertyId" | "unitId">): Promise<Policy> {
  const [policy] = await (await getDb())
    .insert(policies)
    .values({
      policyNumber: formatPolicyNumber(1998, serial++),
      ownerId: issued.ownerId,
      propertyId: issued.propertyId,
      unitId: issued.unitId,
      status: "active",
      productType: "renter_guarantee_insurance",
      productVersion: "2025.12.01",
      coverageAmountCents: 300000,
      coverageStartDate: "2026-01-01",
      coverageEndDate: "2026-12-31",
      premiumCents: 1000,
      cadence: "upfront",
    })
    .returning();
  return policy;
}

/** `enrollmentPartner` for one test file: its webhook receivers close when the file's tests end. */
export function enrollmentPartnersOfThisFile() {
  const receiver = receiversOfThisFile();
  return (options: Parameters<typeof prospectPartner>[0] = {}) => enrollmentPartner(options, () => receiver());
}
