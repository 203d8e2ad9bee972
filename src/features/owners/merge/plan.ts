import { sql } from "drizzle-orm";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { findOwnerBySlugExactly, type Owner } from "../service";
import type { MergeConflict, MergeMoves } from "./merge.table";

export type MergePlan = { from: string; into: string; moves: MergeMoves; conflicts: MergeConflict[] };

/** A key the duplicate's record takes when the survivor already holds its own (decisions §12: nothing is deleted). */
export const renamedKey = (key: string, fromSlug: string) => `${key}~${fromSlug}`;

/** The two owners of a merge, checked: both exist, they differ, and neither was merged already. */
export async function mergeOwnersOf(tx: Tx, fromSlug: string, intoSlug: string): Promise<{ from: Owner; into: Owner }> {
  const [from, into] = await Promise.all([findOwnerBySlugExactly(tx, fromSlug), findOwnerBySlugExactly(tx, intoSlug)]);
  if (!from) throw errors.notFound(`No owner ${fromSlug}`);
  if (!into) throw errors.notFound(`No owner ${intoSlug}`);
  if (from.id === into.id) throw errors.invalid("An owner cannot be merged into itself", "into");
  if (from.mergedIntoId !== null) throw errors.conflict(`Owner ${fromSlug} was already merged`);
  if (into.mergedIntoId !== null) throw errors.conflict(`Owner ${intoSlug} was merged into another owner; merge into that one`);
  return { from, into };
}

/** decisions §4 `owner merge --dry-run`: what moves and every conflict with its resolution. Writes nothing. */
export async function planMerge(tx: Tx, fromSlug: string, intoSlug: string): Promise<MergePlan> {
  const { from, into } = await mergeOwnersOf(tx, fromSlug, intoSlug);
  return planOwners(tx, from, into);
}

export async function planOwners(tx: Tx, from: Owner, into: Owner): Promise<MergePlan> {
  const [moves, conflicts] = await Promise.all([countMoves(tx, from.id), findConflicts(tx, from, into)]);
  return { from: from.slug, into: into.slug, moves, conflicts };
}

async function countMoves(tx: Tx, f: number): Promise<MergeMoves> {
  const [row] = await tx.execute<Record<keyof MergeMoves, number>>(sql`select
    (select count(*)::int from properties where owner_id = ${f}) as buildings,
    (select count(*)::int from units u join properties p on p.id = u.property_id where p.owner_id = ${f}) as units,
    (select count(*)::int from bank_accounts where owner_id = ${f}) as bank_accounts,
    (select count(*)::int from prospects where owner_id = ${f}) as prospects,
    (select count(*)::int from policies where owner_id = ${f}) as policies,
    (select count(*)::int from move_outs where owner_id = ${f}) as move_outs,
    (select count(*)::int from webhook_endpoints where owner_id = ${f}) as endpoints,
    (select count(*)::int from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id where e.owner_id = ${f}) as deliveries,
    (select count(*)::int from client_owner_grants where owner_id = ${f}) as grants,
    (select count(distinct source_id)::int from prospects where owner_id = ${f}) as sources`);
  return {
    buildings: row.buildings,
    units: row.units,
    bank_accounts: row.bank_accounts,
    prospects: row.prospects,
    policies: row.policies,
    move_outs: row.move_outs,
    endpoints: row.endpoints,
    deliveries: row.deliveries,
    grants: row.grants,
    sources: row.sources,
  };
}

async function findConflicts(tx: Tx, from: Owner, into: Owner): Promise<MergeConflict[]> {
  const f = from.id;
  const i = into.id;
  const [buildings, accounts, defaults, prospects, moveOuts, grants, rules] = await Promise.all([
    tx.execute<{ key: string }>(sql`select d.external_system_id as key from properties d
      where d.owner_id = ${f} and exists (select 1 from properties s where s.owner_id = ${i} and s.external_system_id = d.external_system_id) order by 1`),
    tx.execute<{ key: string }>(sql`select d.external_system_id as key from bank_accounts d
      where d.owner_id = ${f} and exists (select 1 from bank_accounts s where s.owner_id = ${i} and s.external_system_id = d.external_system_id) order by 1`),
    tx.execute<{ from_key: string; into_key: string }>(sql`select d.external_system_id as from_key, s.external_system_id as into_key
      from bank_accounts d join bank_accounts s on s.owner_id = ${i} and s.is_default where d.owner_id = ${f} and d.is_default`),
    tx.execute<{ source: string; key: string }>(sql`select d.source, d.source_prospect_id as key from prospects d
      where d.owner_id = ${f} and exists (select 1 from prospects s where s.owner_id = ${i} and s.source = d.source and s.source_prospect_id = d.source_prospect_id) order by 1, 2`),
    tx.execute<{ key: string }>(sql`select d.external_id as key from move_outs d
      where d.owner_id = ${f} and exists (select 1 from move_outs s where s.owner_id = ${i} and s.external_id = d.external_id) order by 1`),
    tx.execute<{ client_id: string }>(sql`select d.client_id from client_owner_grants d
      where d.owner_id = ${f} and exists (select 1 from client_owner_grants s where s.owner_id = ${i} and s.client_id = d.client_id) order by 1`),
    tx.execute<{ n: number }>(sql`select count(*)::int as n from underwriting_rules where owner_id in (${f}, ${i})`),
  ]);
  const renamed = (key: string) => renamedKey(key, from.slug);
  return [
    ...buildings.map(({ key }) => ({
      kind: "building_external_id",
      detail: `Both owners have a building with external_system_id "${key}"`,
      resolution: `The survivor's building keeps "${key}"; the duplicate's building moves as "${renamed(key)}"`,
    })),
    ...accounts.map(({ key }) => ({
      kind: "bank_account_external_id",
      detail: `Both owners have a bank account with external_system_id "${key}"`,
      resolution: `The survivor's account keeps "${key}"; the duplicate's account moves as "${renamed(key)}"`,
    })),
    ...defaults.map((row) => ({
      kind: "default_bank_account",
      detail: `Both owners have a default bank account ("${row.into_key}" on the survivor, "${row.from_key}" on the duplicate)`,
      resolution: `"${row.into_key}" stays the default; "${row.from_key}" moves as a plain account, and the duplicate's buildings that paid to its default keep paying to it`,
    })),
    ...prospects.map(({ source, key }) => ({
      kind: "source_prospect_id",
      detail: `Both owners have prospect "${key}" of source "${source}"`,
      resolution: `The survivor's prospect keeps "${key}"; the duplicate's prospect (with its applications and policies) moves as "${renamed(key)}"`,
    })),
    ...moveOuts.map(({ key }) => ({
      kind: "move_out_external_id",
      detail: `Both owners have move-out "${key}"`,
      resolution: `The survivor's move-out keeps "${key}"; the duplicate's moves as "${renamed(key)}"`,
    })),
    ...grants.map(({ client_id }) => ({
      kind: "duplicate_grant",
      detail: `Client ${client_id} is granted both owners`,
      resolution: "Kept once on the survivor",
    })),
    ...(rules[0].n === 2
      ? [
          {
            kind: "underwriting_rules",
            detail: "Both owners override the underwriting rules",
            resolution: "The survivor's rules apply; the duplicate's stay recorded on the duplicate",
          },
        ]
      : []),
  ];
}
