import { eq } from "drizzle-orm";
import type { Config } from "../../server/config";
import type { Db, Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import type { PaymentProcessor } from "../payments/processor";
import { failNextCharge } from "../payments/processor-for";
import { isoDay } from "../policies/coverage";
import { type Policy, policies } from "../policies/policies.table";
import { BILLING_MESSAGES as M } from "./messages";
import { policySubject } from "./run";
import { isCalendarDay } from "./schedule";

/**
 * The date `billing run` bills as of (decisions §4): today (UTC) unless `--as-of` says otherwise,
 * which only staging may (production refuses any other date, so months are never charged early).
 */
export function billingDate(config: Pick<Config, "appEnv">, asOf: string | undefined, now = new Date()): string {
  const today = isoDay(now);
  if (asOf === undefined) return today;
  if (!isCalendarDay(asOf)) throw errors.invalid(M.asOfFormat, "as_of");
  if (config.appEnv === "production" && asOf !== today) throw errors.forbidden(M.asOfProduction);
  return asOf;
}

export async function policyByNumber(db: Db | Tx, policyNumber: string): Promise<Policy> {
  const [policy] = await db.select().from(policies).where(eq(policies.policyNumber, policyNumber.trim()));
  if (!policy) throw errors.notFound(M.policyNotFound);
  return policy;
}

/**
 * `billing fail-next` (decisions §4, §11; staging only): the simulated processor declines the
 * policy's next charge — the cron's next month or a settlement, whichever comes first — once.
 */
export async function failNextForPolicy(db: Db, config: Pick<Config, "appEnv">, processor: PaymentProcessor, policyNumber: string) {
  if (config.appEnv === "production") throw errors.forbidden(M.failNextProduction);
  const policy = await policyByNumber(db, policyNumber);
  if (policy.cadence !== "monthly") throw errors.invalid(M.notMonthly, "policy");
  await failNextCharge(processor, policySubject(policy.policyNumber));
  return { policy_number: policy.policyNumber };
}
