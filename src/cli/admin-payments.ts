import { eq } from "drizzle-orm";
import { paymentsOfPolicy } from "../features/payments/console/policy-payments";
import { policyListEntry } from "../features/policies/list";
import { policies } from "../features/policies/policies.table";
import { policyIdByNumber } from "../features/policies/revisions/locked-policy";
import { getDb } from "../server/db/client";
import { UsageError } from "./usage";

/** `policy show` of the operator CLI (decisions §4 style, §18); admin.ts lists it beside its own. */
type Flags = Record<string, string | boolean | string[] | undefined>;

export const PAYMENT_COMMANDS: Record<string, { usage: string; run: (flags: Flags) => Promise<unknown> }> = {
  "policy show": {
    usage: "--policy NUMBER",
    run: async (flags) => {
      const number = flags.policy;
      // A missing flag is the caller's typing: a usage error (exit 2), as every other command's.
      if (typeof number !== "string" || number.trim() === "") throw new UsageError("--policy is required");
      const db = await getDb();
      const id = await policyIdByNumber(db, number);
      const [policy] = await db.select().from(policies).where(eq(policies.id, id));
      const { payments, refunds, disputes } = await paymentsOfPolicy(db, id);
      // The policy as `policy list` prints it, with its cadence and premium, then its money.
      return {
        policy: { ...policyListEntry(policy), cadence: policy.cadence, premium_cents: policy.premiumCents },
        payments,
        refunds,
        disputes,
      };
    },
  },
};
