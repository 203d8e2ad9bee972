import { isDeepStrictEqual } from "node:util";
import { and, eq, sql } from "drizzle-orm";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { noticeApplicationDeclined } from "../../messages/notices";
import { type Prospect, prospects } from "../../prospects/prospects.table";
import { ensureRenterUser } from "../renters/renters";
import type { UnderwritingOutcome } from "../underwriting/underwrite";
import { type Application, type ApplicationProduct, applications, type Cadence } from "./applications.table";
import { emitApplicationEvent } from "./events";
import { APPLICATION_MESSAGES as M } from "./messages";

/** The application row, locked for the rest of the transaction. */
export async function lockApplication(tx: Tx, id: number): Promise<Application> {
  const [row] = await tx.select().from(applications).where(eq(applications.id, id)).for("update");
  if (!row) throw errors.notFound(M.notFound);
  return row;
}

export async function lockProspect(tx: Tx, id: number): Promise<Prospect> {
  const [row] = await tx.select().from(prospects).where(eq(prospects.id, id)).for("update");
  if (!row) throw errors.notFound(M.notFound);
  return row;
}

/** The open application of a prospect, if any (resume: decisions §10). */
export async function openApplicationOf(tx: Tx, prospectId: number): Promise<Application | undefined> {
  const [row] = await tx
    .select()
    .from(applications)
    .where(and(eq(applications.prospectId, prospectId), eq(applications.status, "created")));
  return row;
}

export type Preselection = { productType?: Exclude<ApplicationProduct, "renter_guarantee_insurance">; cadence?: Cadence };

/**
 * decisions §10 step (1): the renter starts an application → `policy_application.created`.
 * Idempotent: a prospect has at most one open application (a unique index), and a second start
 * (another tab, a reopened link) answers it without a second event. A product link's preselection
 * (`selected_product`, `cadence`) is kept; it preselects, nothing more. The renter's user record is
 * found or created by the prospect's email (decisions §10 Renters); a prospect without an email
 * cannot start one (409: the enrollment link carries the email).
 */
export async function startApplication(tx: Tx, prospect: Prospect, preselect: Preselection = {}): Promise<{ application: Application; created: boolean }> {
  if (prospect.status !== "ready" || prospect.eligibility?.eligible !== true) throw errors.conflict(M.prospectNotEligible);
  const user = await ensureRenterUser(tx, prospect.email);
  const [inserted] = await tx
    .insert(applications)
    .values({
      prospectId: prospect.id,
      ownerId: prospect.ownerId,
      userId: user.id,
      // A guarantee prospect is offered the guarantee only: a deposit product cannot be preselected.
      productType: prospect.guarantorCoverage ? null : (preselect.productType ?? null),
      cadence: prospect.guarantorCoverage || preselect.productType !== "security_deposit_insurance" ? null : (preselect.cadence ?? null),
    })
    .onConflictDoNothing({ target: applications.prospectId, where: sql`status = 'created'` })
    .returning();
  if (!inserted) {
    const open = await openApplicationOf(tx, prospect.id);
    if (!open) throw errors.unavailable(M.notFound);
    return { application: open, created: false };
  }
  await emitApplicationEvent(tx, "policy_application.created", inserted, prospect);
  return { application: inserted, created: true };
}

/**
 * decisions §10 step (2): stores what `underwrite()` answered → `policy_application.quoted` or
 * `.declined`. The record status stays `created` whatever the outcome (spec: the outcome is the
 * event name). A quoted guarantee names its product and version from now on; a quoted deposit
 * application sets the prospect's `percent_savings`. Recording the same outcome again emits nothing.
 */
export async function recordUnderwriting(tx: Tx, application: Pick<Application, "id">, outcome: UnderwritingOutcome): Promise<Application> {
  const current = await lockApplication(tx, application.id);
  if (current.status !== "created") throw errors.conflict(M.canceled);
  // jsonb does not keep key order: compare values, as stored (undefined fields dropped).
  if (current.outcome === outcome.status && isDeepStrictEqual(current.quote, JSON.parse(JSON.stringify(outcome)))) return current;
  const guarantee = outcome.status === "quoted" ? outcome.guarantee : undefined;
  const [updated] = await tx
    .update(applications)
    .set({
      quote: outcome,
      outcome: outcome.status,
      step: outcome.status === "quoted" ? "choose" : "result",
      ...(guarantee ? { productType: "renter_guarantee_insurance" as const, productVersion: guarantee.productVersion } : {}),
      updatedAt: new Date(),
    })
    .where(eq(applications.id, current.id))
    .returning();
  const prospect = await lockProspect(tx, current.prospectId);
  const savings = outcome.status === "quoted" && !prospect.guarantorCoverage ? (outcome.percentSavings ?? null) : null;
  if (savings !== prospect.percentSavings) await tx.update(prospects).set({ percentSavings: savings }).where(eq(prospects.id, prospect.id));
  await emitApplicationEvent(tx, outcome.status === "quoted" ? "policy_application.quoted" : "policy_application.declined", updated, prospect);
  // decisions §19 (spec: a declined renter "is notified directly"), without a reason.
  if (outcome.status === "declined") await noticeApplicationDeclined(tx, updated);
  return updated;
}

export type Choice = { productType: ApplicationProduct; cadence?: Cadence | null };

/** Whether the quote offered this product (at most two deposit entries, or the guarantee). */
export function isOffered(quote: UnderwritingOutcome | null, productType: ApplicationProduct): boolean {
  if (quote?.status !== "quoted") return false;
  if (productType === "renter_guarantee_insurance") return quote.guarantee !== undefined;
  return quote.offeredProducts.some((offer) => offer.product_type === productType);
}

/**
 * decisions §10 step (3): the renter submits the chosen product → `policy_application.submitted`,
 * and the prospect's `application_submitted` becomes true. Insurance needs a cadence; a cash deposit
 * has none. Submitting the same choice again emits nothing; a different choice (before payment)
 * is the new state and is announced.
 */
export async function submitApplication(tx: Tx, application: Pick<Application, "id">, choice: Choice): Promise<Application> {
  const current = await lockApplication(tx, application.id);
  if (current.status !== "created") throw errors.conflict(M.canceled);
  if (current.outcome !== "quoted") throw errors.conflict(M.notQuoted);
  if (!isOffered(current.quote, choice.productType)) throw errors.invalid(M.productNotOffered, "product_type");
  const insurance = choice.productType !== "cash_deposit";
  if (insurance && !choice.cadence) throw errors.invalid(M.cadenceRequired, "cadence");
  if (!insurance && choice.cadence) throw errors.invalid(M.cadenceNotAllowed, "cadence");
  const cadence = insurance ? (choice.cadence ?? null) : null;
  if (current.submittedAt && current.productType === choice.productType && current.cadence === cadence) return current;
  const [updated] = await tx
    .update(applications)
    .set({ productType: choice.productType, cadence, submittedAt: new Date(), step: "pay", updatedAt: new Date() })
    .where(eq(applications.id, current.id))
    .returning();
  const prospect = await lockProspect(tx, current.prospectId);
  if (!prospect.applicationSubmitted) await tx.update(prospects).set({ applicationSubmitted: true }).where(eq(prospects.id, prospect.id));
  await emitApplicationEvent(tx, "policy_application.submitted", updated, { ...prospect, applicationSubmitted: true });
  return updated;
}
