import { errors } from "../../server/errors";

/**
 * The monthly schedule (docs/decisions.md, Billing and delinquencies). Month `k` of a policy starts
 * on the coverage start's day of the month, `k` months later, clamped to the month's last day
 * (a policy starting on the 31st is charged on Feb 28/29, Apr 30, …, and on the 31st where there is
 * one). Month 0 is paid at purchase (the first monthly premium, decisions §10); months from 1 on are
 * charged by the daily cron on their start day. A month is billed when it starts on or before the
 * coverage end date. Dates are `YYYY-MM-DD` calendar days (UTC), pure functions.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function partsOf(day: string): { year: number; month: number; day: number } {
  const match = DAY.exec(day);
  if (!match) throw errors.invalid(`Not a YYYY-MM-DD date: ${day}`);
  return { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** `YYYY-MM-DD` of a real calendar day, else false (2027-02-30 is not a day). */
export function isCalendarDay(value: string): boolean {
  if (!DAY.test(value)) return false;
  const at = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === value;
}

/** The start of month `index` of a coverage starting on `coverageStart` (month 0 is the start itself). */
export function periodStart(coverageStart: string, index: number): string {
  const start = partsOf(coverageStart);
  const months = start.month - 1 + index;
  const year = start.year + Math.floor(months / 12);
  const month = (((months % 12) + 12) % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${pad(year, 4)}-${pad(month)}-${pad(Math.min(start.day, lastDay))}`;
}

export type Period = { index: number; start: string };

/** Every month the cron charges (index ≥ 1) that has started by `asOf` and starts within the coverage. */
export function duePeriods(coverage: { coverageStartDate: string; coverageEndDate: string }, asOf: string): Period[] {
  const due: Period[] = [];
  for (let index = 1; ; index++) {
    const start = periodStart(coverage.coverageStartDate, index);
    if (start > asOf || start > coverage.coverageEndDate) return due;
    due.push({ index, start });
  }
}

/** The first month not charged yet (the next the cron charges, on its start day), if the coverage has one. */
export function nextUncharged(coverage: { coverageStartDate: string; coverageEndDate: string }, charged: ReadonlySet<number>): Period | undefined {
  for (let index = 1; ; index++) {
    const start = periodStart(coverage.coverageStartDate, index);
    if (start > coverage.coverageEndDate) return undefined;
    if (!charged.has(index)) return { index, start };
  }
}
