import { sql } from "drizzle-orm";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { RENTER_MESSAGES as M } from "./messages";
import { type Resident, residents } from "./residents.table";
import { type RenterUser, renterUsers } from "./users.table";

/** How a renter's email is keyed (decisions §10 Renters; docs/decisions.md, Enrollment: renters). */
export function renterEmailKey(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The renter's user for this email, created on first use (decisions §10: when the renter starts an
 * application). One statement, safe under concurrency: a second start finds the first's row.
 */
export async function ensureRenterUser(tx: Tx, email: string | null): Promise<RenterUser> {
  const key = email ? renterEmailKey(email) : "";
  if (!key) throw errors.conflict(M.emailRequired);
  const [user] = await tx
    .insert(renterUsers)
    .values({ email: key })
    // A no-op update so RETURNING answers the existing row too.
    .onConflictDoUpdate({ target: renterUsers.email, set: { email: sql`excluded.email` } })
    .returning();
  return user;
}

export type Coverage = { policyId: number; cashDepositId?: never } | { cashDepositId: number; policyId?: never };

/**
 * decisions §10 Renters: once covered, the renter is a resident of the unit. One record per user and
 * unit; a later coverage of the same unit links the new policy or deposit and keeps the other link.
 */
export async function linkResident(tx: Tx, link: { userId: number; ownerId: number; unitId: number } & Coverage): Promise<Resident> {
  const [resident] = await tx
    .insert(residents)
    .values({ userId: link.userId, ownerId: link.ownerId, unitId: link.unitId, policyId: link.policyId ?? null, cashDepositId: link.cashDepositId ?? null })
    .onConflictDoUpdate({
      target: [residents.userId, residents.unitId],
      set: {
        policyId: sql`coalesce(excluded.policy_id, ${residents.policyId})`,
        cashDepositId: sql`coalesce(excluded.cash_deposit_id, ${residents.cashDepositId})`,
      },
    })
    .returning();
  return resident;
}
