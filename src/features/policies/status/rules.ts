import type { PolicyEvent } from "../events";
import type { PolicyStatus } from "../policies.table";

/**
 * The status rules every change follows, one change at a time or a sweep's batch
 * (docs/policies.md, Status over time). Pure.
 */

/** `canceled` and `expired` are final; `pending` is only ever a first status (issuance). */
export const TERMINAL_STATUSES: readonly PolicyStatus[] = ["canceled", "expired"];

export function canChangeStatus(from: PolicyStatus, to: PolicyStatus): boolean {
  return from !== to && !TERMINAL_STATUSES.includes(from) && to !== "pending";
}

/** The event a status change emits (spec Event catalog; decisions §11 "each status change emits its event"). */
export function eventOfStatusChange(to: PolicyStatus): PolicyEvent {
  if (to === "canceled") return "policy.canceled";
  if (to === "expired") return "policy.expired";
  // pending → upcoming → active: the payload's `status` changes and the catalog has no event of its
  // own for it, so partners hear the new state as `policy.updated` (it carries the state, not a diff).
  return "policy.updated";
}

export type DatedPolicy = { status: PolicyStatus; coverageStartDate: string; coverageEndDate: string };

/**
 * The status a policy is due to take on `asOf` (a UTC `YYYY-MM-DD`), or undefined when it is where
 * it should be. Coverage days are inclusive: a policy is active from its start date through its end
 * date and expired the day after. An `upcoming` policy whose end has passed goes straight to
 * `expired` (one change). `pending` (still being issued) and the final statuses are not the sweep's.
 * The sweep's SQL (lifecycle/sweep.ts) states the same rule; its tests hold the two together.
 */
export function dueStatusOn(policy: DatedPolicy, asOf: string): "active" | "expired" | undefined {
  if (policy.status !== "upcoming" && policy.status !== "active") return undefined;
  if (policy.coverageEndDate < asOf) return "expired";
  if (policy.status === "upcoming" && policy.coverageStartDate <= asOf) return "active";
  return undefined;
}
