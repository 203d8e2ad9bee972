import { eq } from "drizzle-orm";
import { applications } from "../../src/features/enrollment/applications/applications.table";
import { recordDispute } from "../../src/features/payments/disputes/disputes";
import { policies } from "../../src/features/policies/policies.table";
import { closeDb, getDb } from "../../src/server/db/client";

/**
 * Records a dispute of a policy's purchase payment on the e2e server's database with the real
 * `recordDispute`, as a processor's dispute webhook does (the e2e server runs the simulated
 * processor, which has no banks to dispute anything). Argument: JSON `{policyNumber, disputeId,
 * status, reason, amountCents}`.
 */
const input = JSON.parse(process.argv[2] ?? "{}") as { policyNumber: string; disputeId: string; status: string; reason: string; amountCents: number };
const db = await getDb();
const [paid] = await db
  .select({ chargeId: applications.paymentChargeId })
  .from(policies)
  .innerJoin(applications, eq(applications.id, policies.applicationId))
  .where(eq(policies.policyNumber, input.policyNumber));
if (!paid?.chargeId) throw new Error(`policy ${input.policyNumber} has no purchase payment`);
await recordDispute(db, {
  processor: "simulated",
  disputeId: input.disputeId,
  chargeId: paid.chargeId,
  intentId: null,
  amountCents: input.amountCents,
  reason: input.reason,
  status: input.status,
});
await closeDb();
process.stdout.write("{}\n");
