import { and, eq } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import type { Owner } from "../owners/service";
import { bankAccounts, type Coverage, type properties, type units } from "./roster.table";

type Property = typeof properties.$inferSelect;
type Unit = typeof units.$inferSelect;

/** spec Property: `default_coverage` defaults to 1 times monthly rent. */
export const DEFAULT_COVERAGE: Coverage = { type: "multiplier", value: 1 };

/** spec Property: `policy_holder_name` defaults to the owner name followed by `, LLC`. */
export function policyHolderNameOf(property: Property, owner: Owner): string {
  return property.policyHolderName ?? `${owner.name}, LLC`;
}

/** spec Unit: `default_coverage` is inherited from the property when absent. */
export function coverageOf(property: Property, unit?: Unit): Coverage {
  return unit?.defaultCoverage ?? property.defaultCoverage ?? DEFAULT_COVERAGE;
}

/**
 * spec Property `bank_account_external_id`: the building's own account, else the owner's current
 * default (so buildings without an explicit account follow a moved default).
 */
export async function payoutAccountIdOf(tx: Tx, property: Property): Promise<number | null> {
  if (property.bankAccountId !== null) return property.bankAccountId;
  const [account] = await tx
    .select({ id: bankAccounts.id })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.ownerId, property.ownerId), eq(bankAccounts.isDefault, true)));
  return account?.id ?? null;
}
