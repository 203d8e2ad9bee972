import type { FieldErrors } from "../../../server/errors";
import type { PolicyStatus } from "../policies.table";
import { REVISION_MESSAGES as M } from "./messages";

/** Largest value a PostgreSQL `integer` holds: larger amounts are refused, not overflowed. */
const MAX_INT = 2_147_483_647;

/** A real calendar day in `YYYY-MM-DD` (2026-02-30 is refused). */
export function isValidDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
}

export type RevisionChanges = { coverageAmountCents?: number; coverageStartDate?: string; coverageEndDate?: string };

/**
 * Field errors of the requested values (docs/decisions.md, Policies: revisions and cancellation):
 * the amount a positive integer within the owner's ceiling when it has one; dates real days; the
 * resulting start strictly before the resulting end.
 */
export function revisionFieldErrors(
  changes: RevisionChanges,
  current: { coverageStartDate: string; coverageEndDate: string },
  ownerMaxCents: number | null,
): FieldErrors {
  const fields: FieldErrors = {};
  const amount = changes.coverageAmountCents;
  if (amount !== undefined) {
    if (!Number.isInteger(amount) || amount <= 0 || amount > MAX_INT) fields.coverage_amount_cents = [M.amountNotPositive];
    else if (ownerMaxCents !== null && amount > ownerMaxCents) fields.coverage_amount_cents = [M.amountOverOwnerMax(ownerMaxCents)];
  }
  if (changes.coverageStartDate !== undefined && !isValidDay(changes.coverageStartDate)) fields.coverage_start_date = [M.dateInvalid];
  if (changes.coverageEndDate !== undefined && !isValidDay(changes.coverageEndDate)) fields.coverage_end_date = [M.dateInvalid];
  if (!fields.coverage_start_date && !fields.coverage_end_date) {
    const start = changes.coverageStartDate ?? current.coverageStartDate;
    const end = changes.coverageEndDate ?? current.coverageEndDate;
    if (start >= end) fields[changes.coverageEndDate !== undefined ? "coverage_end_date" : "coverage_start_date"] = [M.startNotBeforeEnd];
  }
  return fields;
}

/** Statuses a revision may start from: a canceled or expired policy is closed (409). */
export const REVISABLE: readonly PolicyStatus[] = ["pending", "upcoming", "active"];

/**
 * The status a revised policy has on `today` (decisions §11 Policy status): coverage starting after
 * today → `upcoming`; covering today → `active`; an end date moved before today ends the coverage
 * early, which is a cancellation (`canceled`, with `policy.canceled`), not a natural expiry.
 * `pending` (still being issued) is left to issuance.
 */
export function statusAfterRevision(status: PolicyStatus, period: { start: string; end: string }, today: string): PolicyStatus {
  if (status === "pending") return status;
  if (period.end < today) return "canceled";
  return period.start > today ? "upcoming" : "active";
}
