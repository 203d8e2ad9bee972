import { recordAudit } from "../features/audit/audit";
import { billingDate, failNextForPolicy } from "../features/billing/levers";
import { runBilling } from "../features/billing/run";
import { settlePolicyByNumber } from "../features/billing/settle";
import { processorFor } from "../features/payments/processor-for";
import { getConfig } from "../server/config";
import { getDb } from "../server/db/client";
import { errors } from "../server/errors";
import { cliActor } from "./usage";

/** `billing …` commands of the operator CLI (decisions §4, §11); admin.ts lists them beside its own. */
type Flags = Record<string, string | boolean | string[] | undefined>;

const policyFlag = (flags: Flags): string => {
  const value = flags.policy;
  if (typeof value !== "string" || value.trim() === "") throw errors.invalid("--policy NUMBER is required", "policy");
  return value;
};

/** The flags these commands add (`--policy` is the CLI's already, shared with `policy revise`/`cancel`). */
export const BILLING_OPTIONS = {
  "as-of": { type: "string" },
} as const;

export const BILLING_COMMANDS: Record<string, { usage: string; run: (flags: Flags) => Promise<unknown> }> = {
  "billing run": {
    usage: "[--as-of YYYY-MM-DD] (staging only for a date other than today)",
    run: async (flags) => {
      const asOf = billingDate(getConfig(), typeof flags["as-of"] === "string" ? flags["as-of"] : undefined);
      const db = await getDb();
      const { charged, failed } = await runBilling(db, asOf);
      // Charges commit one by one (run.ts): the run is recorded once, after them, with its counts
      // (billing_charges holds each month). docs/decisions.md "Hardening: the CLI, merged links, demo framing".
      await recordAudit(db, cliActor(), {
        action: "billing.run",
        subject: { type: "billing_run", id: asOf },
        after: { as_of: asOf, charged: charged.length, failed: failed.length },
      });
      return { charged, failed };
    },
  },
  "billing fail-next": {
    usage: "--policy NUMBER (staging only: the simulated processor declines that policy's next charge)",
    run: async (flags) => {
      const db = await getDb();
      const marked = await failNextForPolicy(db, getConfig(), processorFor(getConfig()), policyFlag(flags));
      await recordAudit(db, cliActor(), { action: "billing.fail_next", subject: { type: "policy", id: marked.policy_number }, after: marked });
      return marked;
    },
  },
  "billing settle": {
    usage: "--policy NUMBER (charges what is outstanding; clears the delinquency)",
    run: async (flags) => {
      const settled = await settlePolicyByNumber(await getDb(), cliActor(), policyFlag(flags));
      return { policy_number: settled.policy_number, ...(settled.delinquency_id ? { delinquency_id: settled.delinquency_id } : {}) };
    },
  },
};
