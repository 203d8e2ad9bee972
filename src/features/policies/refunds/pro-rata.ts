/**
 * The unearned premium of a canceled upfront-paid policy (decisions §18 Refunds: pro rata by day,
 * in cents, rounded down; docs/decisions.md, "Refunds, disputes and reconciliation"). Coverage
 * runs from its start to its end day, both included. The day of the cancellation is earned once
 * coverage has started (the renter was covered that day); every later day is unearned, and a
 * policy canceled before its start refunds everything paid.
 */
export function unearnedPremiumCents(paidCents: number, coverage: { start: string; end: string }, canceledOn: string): number {
  const total = daysBetween(coverage.start, coverage.end) + 1;
  if (total <= 0 || paidCents <= 0) return 0;
  const firstUnearned = canceledOn < coverage.start ? coverage.start : nextDay(canceledOn);
  if (firstUnearned > coverage.end) return 0;
  const unearned = daysBetween(firstUnearned, coverage.end) + 1;
  // Integers all along: at most 2^31 cents × a few thousand days stays far below 2^53.
  return Math.floor((paidCents * unearned) / total);
}

const DAY_MS = 86_400_000;
const at = (day: string) => Date.parse(`${day}T00:00:00Z`);
const daysBetween = (from: string, to: string) => Math.round((at(to) - at(from)) / DAY_MS);
const nextDay = (day: string) => new Date(at(day) + DAY_MS).toISOString().slice(0, 10);
