import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { renamedKey } from "../../owners/merge/plan";
import type { Owner } from "../../owners/service";
import { type CashDeposit, cashDeposits, type Policy, policies } from "../../policies/policies.table";
import { prospectContext } from "../../prospects/context";
import { type Prospect, prospects } from "../../prospects/prospects.table";
import type { Source } from "../../prospects/sources.table";
import type { properties, units } from "../../roster/roster.table";
import { type Application, applications } from "../applications/applications.table";
import type { LinkParams } from "./contract";
import { parseSignedLink, type SignedLink } from "./link";
import { FLOW_MESSAGES } from "./messages";

export type Property = typeof properties.$inferSelect;
export type Unit = typeof units.$inferSelect;

/** Everything the flow reads to know where a link's enrollment stands (decisions §10 Resume). */
export type EnrollmentRecord = {
  link: SignedLink;
  prospect: Prospect;
  owner: Owner;
  source: Source;
  property: Property | null;
  unit: Unit | null;
  /** The open application, else the latest one (a canceled one still prefills the details). */
  application: Application | null;
  policy: Policy | null;
  cashDeposit: CashDeposit | null;
};

/** At most this many merges are followed from a link's owner (each doubles the keys looked up). */
const MAX_MERGES_FOLLOWED = 4;

/**
 * The slugs of the owners a link's records went through in merges, oldest merge first: the link's
 * own owner when it was merged, then each survivor that was merged in turn (owners/merge/merge.ts
 * moves the records of a duplicate's duplicates along with it).
 */
async function mergedFromSlugs(db: Tx, slug: string): Promise<string[]> {
  const rows = await db.execute<{ from_slug: string }>(sql`with recursive chain as (
      select from_slug, into_slug, 1 as depth from owner_merges where from_slug = ${slug}
      union all
      select m.from_slug, m.into_slug, c.depth + 1 from owner_merges m join chain c on m.from_slug = c.into_slug
      where c.depth < ${MAX_MERGES_FOLLOWED})
    select from_slug from chain order by depth`);
  return [...rows].map((row) => row.from_slug);
}

/**
 * The keys the link's prospect may have now, the likeliest first: a merge renames a duplicate's
 * prospect whose key the survivor already holds (`renamedKey`), so each merge the link's records
 * went through may have added its suffix. A key with the oldest merge's suffix comes first (that
 * prospect is the duplicate's own; the bare key may be the survivor's namesake).
 */
function keysAfterMerges(key: string, fromSlugs: readonly string[]): string[] {
  const keys: string[] = [];
  for (let mask = 2 ** fromSlugs.length - 1; mask >= 0; mask--) {
    keys.push(fromSlugs.reduce((renamed, slug, index) => (mask & (1 << (fromSlugs.length - 1 - index)) ? renamedKey(renamed, slug) : renamed), key));
  }
  return keys;
}

/**
 * The link's enrollment, or undefined when the link is not valid: signature, unknown owner, source
 * or prospect, or an email that is not the prospect's (decisions §10 Links). A link issued under an
 * owner merged since opens under the survivor, where its prospect moved (decisions §15: a merged
 * duplicate's slug keeps resolving, signature still checked). Reads only.
 */
export async function loadRecord(db: Tx, params: LinkParams): Promise<EnrollmentRecord | undefined> {
  const link = parseSignedLink(params);
  if (!link) return undefined;
  const keys = keysAfterMerges(link.sourceProspectId, await mergedFromSlugs(db, link.ownerSlug));
  const found = await prospectContext(db).where(
    and(
      // The owner the slug names, or its survivor (as the Partner API resolves it: owners/service.ts findOwnerBySlug).
      eq(prospects.ownerId, sql`(select coalesce(o.merged_into_id, o.id) from property_owners o where o.slug = ${link.ownerSlug})`),
      eq(prospects.source, link.source),
      keys.length === 1 ? eq(prospects.sourceProspectId, link.sourceProspectId) : inArray(prospects.sourceProspectId, keys),
    ),
  );
  const row = found.sort((a, b) => keys.indexOf(a.prospect.sourceProspectId) - keys.indexOf(b.prospect.sourceProspectId))[0];
  if (!row || (row.prospect.email ?? "").toLowerCase() !== link.email.toLowerCase()) return undefined;
  // The open application first (`created` sorts after `canceled`; at most one open: a unique index), else the newest.
  const [application] = await db
    .select()
    .from(applications)
    .where(eq(applications.prospectId, row.prospect.id))
    .orderBy(desc(applications.status), desc(applications.id))
    .limit(1);
  const [policy, cashDeposit] = application
    ? await Promise.all([
        db.select().from(policies).where(eq(policies.applicationId, application.id)),
        db.select().from(cashDeposits).where(eq(cashDeposits.applicationId, application.id)),
      ])
    : [[], []];
  return {
    link,
    ...row,
    property: row.property ?? null,
    unit: row.unit ?? null,
    application: application ?? null,
    policy: policy[0] ?? null,
    cashDeposit: cashDeposit[0] ?? null,
  };
}

/** For the actions: a link that is not valid answers 404 and changes nothing (decisions §10 Links). */
export async function requireRecord(db: Tx, params: LinkParams): Promise<EnrollmentRecord> {
  const record = await loadRecord(db, params);
  if (!record) throw errors.notFound(FLOW_MESSAGES.linkNotValid);
  return record;
}

/** The policy named by the prospect's `latest_coverage` (covered before this application, or by another one). */
export async function policyByNumber(db: Tx, policyNumber: string): Promise<Policy | undefined> {
  const [row] = await db.select().from(policies).where(eq(policies.policyNumber, policyNumber));
  return row;
}
