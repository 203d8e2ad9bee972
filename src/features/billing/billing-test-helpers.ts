import { eq } from "drizzle-orm";
import { getDb } from "../../server/db/client";
import { call } from "../../test/http";
import { runDueJobs } from "../../test/jobs";
import type { ResultView } from "../enrollment/flow/contract";
import { card, DETAILS, okView, renter } from "../enrollment/flow/flow-test-helpers";
import { chooseProduct, payEnrollment, submitDetails } from "../enrollment/flow/service";
import { type Policy, policies } from "../policies/policies.table";
import { enrollmentPartnersOfThisFile } from "../policies/policy-test-helpers";
import { periodStart } from "./schedule";

export const DELINQUENCY_EVENTS = ["delinquency.created", "delinquency.resolved"];

/**
 * `enrollmentPartnersOfThisFile`, whose owner also has an endpoint subscribed to the delinquency
 * events and `policy.updated` (where tests read the renewal fields).
 */
export function billingPartnersOfThisFile() {
  const partner = enrollmentPartnersOfThisFile();
  return async (options: Parameters<typeof partner>[0] = {}) => {
    const p = await partner(options);
    await call("POST", `${p.base}/webhooks/endpoints`, {
      token: p.token,
      body: { endpoint: { name: "delinquencies", destination_url: p.hook.url, events: [...DELINQUENCY_EVENTS, "policy.updated"] } },
    });
    const deliveredOf = (event: string) => p.delivered().filter((body) => body.event === event);
    return { ...p, deliveredOf };
  };
}

type BillingPartner = Awaited<ReturnType<ReturnType<typeof billingPartnersOfThisFile>>>;

/** A deposit insurance policy bought monthly through the renter flow (the card is kept at purchase). */
export async function monthlyPolicy(p: BillingPartner, sourceProspectId: string, extra: Record<string, unknown> = {}): Promise<Policy> {
  const { link } = await renter(p, sourceProspectId, extra, { selectedProduct: "security_deposit_insurance", cadence: "monthly" });
  okView(await submitDetails(link, DETAILS));
  await runDueJobs();
  okView(await chooseProduct(link, { productType: "security_deposit_insurance", cadence: "monthly" }));
  const done = okView(await payEnrollment(link, card())) as ResultView;
  const [policy] = await (await getDb())
    .select()
    .from(policies)
    .where(eq(policies.policyNumber, done.policyNumber ?? ""));
  return policy;
}

/** The start of the policy's month `index` (month 1 is the first the cron charges). */
export const monthOf = (policy: Policy, index: number) => periodStart(policy.coverageStartDate, index);
