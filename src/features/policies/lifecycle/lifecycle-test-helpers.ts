import { eq, inArray } from "drizzle-orm";
import { getDb } from "../../../server/db/client";
import { call } from "../../../test/http";
import { recordUnderwriting, startApplication, submitApplication } from "../../enrollment/applications/service";
import { webhookEvents } from "../../webhooks/webhooks.table";
import { issuePolicy } from "../issue";
import { type Policy, policies } from "../policies.table";
import { defaultOutcome, type enrollmentPartner } from "../policy-test-helpers";

export const STATUS_EVENTS = ["policy.updated", "policy.expired", "policy.canceled"];

type Partner = Awaited<ReturnType<typeof enrollmentPartner>>;

/** Subscribes the partner's receiver to the status events too (the helper's endpoint has issuance's). */
export async function subscribeToStatusEvents(p: Partner): Promise<void> {
  const answer = await call("POST", `${p.base}/webhooks/endpoints`, {
    token: p.token,
    body: { endpoint: { name: "status", destination_url: p.hook.url, events: STATUS_EVENTS } },
  });
  if (answer.status !== 201 && answer.status !== 200) throw new Error(`endpoint: ${answer.status} ${answer.text}`);
}

/**
 * Issues a real policy to a ready prospect (deposit insurance, paid 2026-11-24; the samples' lease
 * runs 2026-12-01 → 2027-11-30, so it is `upcoming`), then sets its coverage dates and status when
 * asked: the test's starting point, as a revision or earlier sweeps would have left it.
 */
export async function issuedPolicy(p: Partner, sourceProspectId: string, set: Partial<Pick<Policy, "coverageStartDate" | "coverageEndDate" | "status">> = {}) {
  const prospect = await p.ready(sourceProspectId);
  const db = await getDb();
  const { policy } = await db.transaction(async (tx) => {
    const { application } = await startApplication(tx, prospect);
    await recordUnderwriting(tx, application, defaultOutcome(prospect));
    await submitApplication(tx, application, { productType: "security_deposit_insurance", cadence: "upfront" });
    return issuePolicy(tx, application, { paidAt: new Date("2026-11-24T15:00:00Z") });
  });
  if (Object.keys(set).length === 0) return policy;
  const [updated] = await db.update(policies).set(set).where(eq(policies.id, policy.id)).returning();
  return updated;
}

/** The bodies of the status events recorded about these policies, by policy number. */
export async function statusEventsOf(policyNumbers: string[]) {
  const db = await getDb();
  const rows = await db
    .select({ event: webhookEvents.event, body: webhookEvents.body, policyNumber: webhookEvents.policyNumber })
    .from(webhookEvents)
    .where(inArray(webhookEvents.policyNumber, policyNumbers));
  return rows
    .filter((row) => STATUS_EVENTS.includes(row.event))
    .map((row) => ({
      event: row.event,
      policyNumber: row.policyNumber,
      body: JSON.parse(row.body) as { data: { insurance_policy: Record<string, unknown> } },
    }));
}
