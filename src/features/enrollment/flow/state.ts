import { and, desc, eq } from "drizzle-orm";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import type { Owner } from "../../owners/service";
import { propertyOwners } from "../../owners/tables";
import { type CashDeposit, cashDeposits, type Policy, policies } from "../../policies/policies.table";
import { type Source, sources } from "../../prospects/sources.table";
import { type Prospect, prospects } from "../../prospects/tables";
import { properties, units } from "../../roster/tables";
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

/**
 * The link's enrollment, or undefined when the link is not valid: signature, unknown owner, source
 * or prospect, or an email that is not the prospect's (decisions §10 Links). Reads only.
 */
export async function loadRecord(db: Tx, params: LinkParams): Promise<EnrollmentRecord | undefined> {
  const link = parseSignedLink(params);
  if (!link) return undefined;
  const [row] = await db
    .select({ prospect: prospects, owner: propertyOwners, source: sources, property: properties, unit: units })
    .from(prospects)
    .innerJoin(propertyOwners, eq(propertyOwners.id, prospects.ownerId))
    .innerJoin(sources, eq(sources.id, prospects.sourceId))
    .leftJoin(properties, eq(properties.id, prospects.propertyId))
    .leftJoin(units, eq(units.id, prospects.unitId))
    .where(and(eq(propertyOwners.slug, link.ownerSlug), eq(prospects.source, link.source), eq(prospects.sourceProspectId, link.sourceProspectId)));
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
