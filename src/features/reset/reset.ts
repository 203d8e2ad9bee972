import { and, eq, inArray, isNull, notExists, or, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { applications } from "../enrollment/applications/applications.table";
import { renterEmailKey } from "../enrollment/renters/renters";
import { residents } from "../enrollment/renters/residents.table";
import { renterUsers } from "../enrollment/renters/users.table";
import { deleteArchivesOfPolicies } from "../policies/documents/storage";
import { cashDeposits, policies } from "../policies/policies.table";
import { prospects } from "../prospects/prospects.table";
import { sources } from "../prospects/sources.table";

export type ResetResult = { user_ids: number[]; prospect_ids: number[]; policy_ids: number[]; resident_ids: number[] };

const ids = (rows: { id: number }[]): number[] => rows.map((row) => row.id).sort((a, b) => a - b);
const none = sql`false`;

/**
 * spec Reset rule (staging only), decisions §10 Renters: clears the renter's records under the owner
 * for real so the same email can enroll again: its prospects, their applications, policies (with
 * their document archives) and cash deposits, the resident records of those policies and deposits,
 * and the renter's user once nothing else of it remains. Idempotent (nothing to clear answers empty
 * lists); never creates anything. Only what the calling client can reach is cleared: the prospects
 * of its own sources and what hangs off them (docs/decisions.md, Move-outs and reset: partners sharing an owner never touch
 * each other's records). Set-based: a fixed number of statements whatever the number of rows. Run it
 * in one transaction.
 */
export async function resetRenter(tx: Tx, ownerId: number, clientId: string, email: string): Promise<ResetResult> {
  const prospectRows = await tx
    .select({ id: prospects.id })
    .from(prospects)
    .where(
      and(
        eq(prospects.ownerId, ownerId),
        sql`lower(${prospects.email}) = ${renterEmailKey(email)}`,
        inArray(prospects.sourceId, tx.select({ id: sources.id }).from(sources).where(eq(sources.clientId, clientId))),
      ),
    )
    .for("update");
  const prospectIds = ids(prospectRows);
  if (prospectIds.length === 0) return { user_ids: [], prospect_ids: [], policy_ids: [], resident_ids: [] };

  const applicationRows = await tx
    .select({ id: applications.id, userId: applications.userId })
    .from(applications)
    .where(inArray(applications.prospectId, prospectIds));
  const applicationIds = ids(applicationRows);
  const ofApplications = (column: typeof policies.applicationId | typeof cashDeposits.applicationId) =>
    applicationIds.length ? inArray(column, applicationIds) : none;
  const [policyRows, depositRows] = await Promise.all([
    tx
      .select({ id: policies.id })
      .from(policies)
      .where(and(eq(policies.ownerId, ownerId), or(inArray(policies.prospectId, prospectIds), ofApplications(policies.applicationId)))),
    tx
      .select({ id: cashDeposits.id })
      .from(cashDeposits)
      .where(and(eq(cashDeposits.ownerId, ownerId), or(inArray(cashDeposits.prospectId, prospectIds), ofApplications(cashDeposits.applicationId)))),
  ]);
  const policyIds = ids(policyRows);
  const depositIds = ids(depositRows);
  const inPolicies = policyIds.length ? inArray(residents.policyId, policyIds) : none;
  const inDeposits = depositIds.length ? inArray(residents.cashDepositId, depositIds) : none;

  // A resident record goes when every coverage it links is being cleared; one that also links
  // another partner's policy or deposit keeps it and is only unlinked (the foreign keys set null).
  const deletedResidents = await tx
    .delete(residents)
    .where(and(or(inPolicies, inDeposits), or(isNull(residents.policyId), inPolicies), or(isNull(residents.cashDepositId), inDeposits)))
    .returning({ id: residents.id, userId: residents.userId });
  await deleteArchivesOfPolicies(tx, policyIds);
  await Promise.all([
    policyIds.length ? tx.delete(policies).where(inArray(policies.id, policyIds)) : undefined,
    depositIds.length ? tx.delete(cashDeposits).where(inArray(cashDeposits.id, depositIds)) : undefined,
  ]);
  // Applications go with their prospects (on delete cascade); deleted explicitly all the same.
  if (applicationIds.length) await tx.delete(applications).where(inArray(applications.id, applicationIds));
  await tx.delete(prospects).where(inArray(prospects.id, prospectIds));

  // The renter's user goes once no application or resident record of it remains (another partner's
  // application, or a resident of another owner's unit, keeps it). Candidates: the users of what was
  // cleared, and the user of this email.
  const userIds = [...new Set([...applicationRows.map((row) => row.userId), ...deletedResidents.map((row) => row.userId)])].filter(
    (id): id is number => id !== null,
  );
  const deletedUsers = await tx
    .delete(renterUsers)
    .where(
      and(
        or(eq(renterUsers.email, renterEmailKey(email)), userIds.length ? inArray(renterUsers.id, userIds) : none),
        notExists(tx.select({ one: sql`1` }).from(applications).where(eq(applications.userId, renterUsers.id))),
        notExists(tx.select({ one: sql`1` }).from(residents).where(eq(residents.userId, renterUsers.id))),
      ),
    )
    .returning({ id: renterUsers.id });
  return { user_ids: ids(deletedUsers), prospect_ids: prospectIds, policy_ids: policyIds, resident_ids: ids(deletedResidents) };
}
