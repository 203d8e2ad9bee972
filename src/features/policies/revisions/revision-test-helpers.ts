import { and, asc, eq } from "drizzle-orm";
import { getDb } from "../../../server/db/client";
import { call } from "../../../test/http";
import { runDueJobs } from "../../../test/jobs";
import { recordUnderwriting, startApplication, submitApplication } from "../../enrollment/applications/service";
import { properties, units } from "../../roster/roster.table";
import { address } from "../../roster/roster-test-helpers";
import { webhookEvents } from "../../webhooks/webhooks.table";
import { issuePolicy } from "../issue";
import { type Policy, policies } from "../policies.table";
import { defaultOutcome, type enrollmentPartnersOfThisFile } from "../policy-test-helpers";

/** Paid the day before the samples' lease starts (2026-12-01 → 2027-11-30): issued `upcoming`. */
export const PAID_AT = new Date("2026-11-24T15:00:00Z");

type Partner = Awaited<ReturnType<ReturnType<typeof enrollmentPartnersOfThisFile>>>;

/**
 * An issued deposit-insurance policy of a ready prospect, with its first archive built, and the
 * partner's second endpoint subscribed to the events the first does not take (updated, canceled,
 * expired) on the same receiver: every policy event reaches the receiver once. Also a second unit
 * `u2` (PMS unit `PMS-102`) in the policy's building and a unit `x1` in another building.
 */
export async function issuedPolicy(p: Partner, sourceProspectId: string, extra: Record<string, unknown> = {}): Promise<Policy> {
  await call("POST", `${p.base}/webhooks/endpoints`, {
    token: p.token,
    body: { endpoint: { name: "servicing", destination_url: p.hook.url, events: ["policy.updated", "policy.canceled", "policy.expired"] } },
  });
  await call("POST", `${p.base}/properties`, {
    token: p.token,
    body: [{ external_system_id: "b2", building_name: "Building Two", address: address("20 Oak St") }],
  });
  await call("POST", `${p.base}/units`, {
    token: p.token,
    body: [
      { external_system_id: "u2", property_external_id: "b1", name: "102", pms_unit_id: "PMS-102" },
      { external_system_id: "x1", property_external_id: "b2", name: "201" },
    ],
  });
  const prospect = await p.ready(sourceProspectId, extra);
  const db = await getDb();
  const policy = await db.transaction(async (tx) => {
    const { application } = await startApplication(tx, prospect);
    await recordUnderwriting(tx, application, defaultOutcome(prospect));
    const submitted = await submitApplication(tx, application, { productType: "security_deposit_insurance", cadence: "upfront" });
    return (await issuePolicy(tx, submitted, { paidAt: PAID_AT })).policy;
  });
  await runDueJobs(); // builds the first archive
  await runDueJobs(); // delivers policy.created and the first policy.documents_updated
  return policy;
}

/** The unit with this external id among the owner's buildings. */
export async function unitOf(ownerId: number, externalId: string) {
  const db = await getDb();
  const [row] = await db
    .select({ unit: units })
    .from(units)
    .innerJoin(properties, eq(properties.id, units.propertyId))
    .where(and(eq(properties.ownerId, ownerId), eq(units.externalSystemId, externalId)));
  return row.unit;
}

/** The events recorded about a policy, oldest first, with their bodies parsed. */
export async function eventsOf(policyNumber: string) {
  const db = await getDb();
  const rows = await db.select().from(webhookEvents).where(eq(webhookEvents.policyNumber, policyNumber)).orderBy(asc(webhookEvents.id));
  return rows.map((row) => ({
    event: row.event,
    data: (JSON.parse(row.body) as { data: { insurance_policy: Record<string, unknown> } }).data.insurance_policy,
  }));
}

export async function policyRowOf(id: number): Promise<Policy> {
  const db = await getDb();
  const [row] = await db.select().from(policies).where(eq(policies.id, id));
  return row;
}
