import { eq } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { type Application, applications } from "../enrollment/applications/applications.table";
import { lockApplication, lockProspect } from "../enrollment/applications/service";
import { ensureRenterUser, linkResident } from "../enrollment/renters/renters";
import { prospects } from "../prospects/prospects.table";
import { POLICY_MESSAGES as M } from "./messages";
import { type CashDeposit, cashDeposits } from "./policies.table";

/**
 * decisions §10 step (4): a submitted cash-deposit application is recorded as a cash deposit, not a
 * policy (no policy event exists for it); the prospect's `latest_coverage` becomes
 * `{type: "cash_deposit", coverage_amount_cents}`. The amount is the one underwriting offered.
 * The renter becomes a resident of the unit, linked to the deposit (decisions §10 Renters).
 * Idempotent: the application's deposit, once recorded, is answered again.
 */
export async function recordCashDeposit(tx: Tx, application: Pick<Application, "id">): Promise<{ cashDeposit: CashDeposit; created: boolean }> {
  const current = await lockApplication(tx, application.id);
  const [existing] = await tx.select().from(cashDeposits).where(eq(cashDeposits.applicationId, current.id));
  if (existing) return { cashDeposit: existing, created: false };
  if (current.status !== "created") throw errors.conflict(M.applicationCanceled);
  if (current.outcome !== "quoted") throw errors.conflict(M.notQuoted);
  if (!current.submittedAt) throw errors.conflict(M.notSubmitted);
  if (current.productType !== "cash_deposit") throw errors.conflict(M.notACashDeposit);
  const offer = current.quote?.status === "quoted" ? current.quote.offeredProducts.find((o) => o.product_type === "cash_deposit") : undefined;
  if (offer?.product_type !== "cash_deposit") throw errors.conflict(M.productNotOffered);
  const prospect = await lockProspect(tx, current.prospectId);
  if (prospect.unitId === null) throw errors.conflict(M.unitMissing);
  const [cashDeposit] = await tx
    .insert(cashDeposits)
    .values({
      applicationId: current.id,
      prospectId: prospect.id,
      ownerId: prospect.ownerId,
      unitId: prospect.unitId,
      amountCents: offer.cash_deposit_amount_cents,
    })
    .returning();
  const userId = current.userId ?? (await ensureRenterUser(tx, prospect.email)).id;
  await Promise.all([
    linkResident(tx, { userId, ownerId: cashDeposit.ownerId, unitId: cashDeposit.unitId, cashDepositId: cashDeposit.id }),
    tx.update(applications).set({ step: "result", updatedAt: new Date() }).where(eq(applications.id, current.id)),
    tx
      .update(prospects)
      .set({ latestCoverage: { type: "cash_deposit", coverage_amount_cents: cashDeposit.amountCents } })
      .where(eq(prospects.id, prospect.id)),
  ]);
  return { cashDeposit, created: true };
}
