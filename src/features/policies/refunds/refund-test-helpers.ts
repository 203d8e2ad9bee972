import { eq } from "drizzle-orm";
import { getDb } from "../../../server/db/client";
import { runDueJobs } from "../../../test/jobs";
import type { ResultView } from "../../enrollment/flow/contract";
import { card, DETAILS, okView, renter } from "../../enrollment/flow/flow-test-helpers";
import { chooseProduct, payEnrollment, submitDetails } from "../../enrollment/flow/service";
import { type Policy, policies } from "../policies.table";
import type { enrollmentPartnersOfThisFile } from "../policy-test-helpers";
import { policyRefunds } from "./refunds.table";

type Partner = Awaited<ReturnType<ReturnType<typeof enrollmentPartnersOfThisFile>>>;

/** A deposit insurance policy bought through the renter flow and paid with the simulated processor. */
export async function paidPolicy(
  p: Partner,
  sourceProspectId: string,
  cadence: "upfront" | "monthly" = "upfront",
  extra: Record<string, unknown> = {},
): Promise<Policy> {
  const { link } = await renter(p, sourceProspectId, extra, { selectedProduct: "security_deposit_insurance", cadence });
  okView(await submitDetails(link, DETAILS));
  await runDueJobs();
  okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence }));
  const done = okView(await payEnrollment(link, card())) as ResultView;
  const [policy] = await (await getDb())
    .select()
    .from(policies)
    .where(eq(policies.policyNumber, done.policyNumber ?? ""));
  return policy;
}

export async function refundRowsOf(policyId: number) {
  return (await getDb()).select().from(policyRefunds).where(eq(policyRefunds.policyId, policyId)).orderBy(policyRefunds.id);
}
