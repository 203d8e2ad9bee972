import { and, eq, type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { type Policy, policies } from "../policies/policies.table";

/**
 * Which policies are a renter's (decisions §19: "every policy of that email under every owner"): the
 * renter of a policy is its prospect's email as it is now (the partner may have corrected it), else
 * the email the renter bought with (their renter user), the rule the renter's messages follow
 * (messages/notices.ts `renterAddressOf`). Every read and change of the account starts here, so a
 * renter never reaches a policy that is not theirs, whatever id a path or a form names.
 */
function renterEmailIs(email: string): SQL {
  return sql`coalesce(
    (select nullif(lower(btrim(pr.email)), '') from prospects pr where pr.id = ${policies.prospectId}),
    (select u.email from applications a join renter_users u on u.id = a.user_id where a.id = ${policies.applicationId})
  ) = ${email.trim().toLowerCase()}`;
}

export async function policiesOfEmail(tx: Tx, email: string): Promise<Policy[]> {
  return tx.select().from(policies).where(renterEmailIs(email)).orderBy(sql`${policies.issuedAt} desc`, sql`${policies.id} desc`);
}

export async function emailHasPolicies(tx: Tx, email: string): Promise<boolean> {
  const [row] = await tx.select({ id: policies.id }).from(policies).where(renterEmailIs(email)).limit(1);
  return row !== undefined;
}

/** The policy when it is this renter's; undefined (the pages' 404) for anyone else's or none. */
export async function policyOfEmail(tx: Tx, email: string, policyId: number): Promise<Policy | undefined> {
  if (!Number.isSafeInteger(policyId) || policyId <= 0 || policyId > 2_147_483_647) return undefined;
  const [row] = await tx
    .select()
    .from(policies)
    .where(and(eq(policies.id, policyId), renterEmailIs(email)));
  return row;
}
