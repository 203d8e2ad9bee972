/** Formatting of the declarations page: money, dates and the address, in US English. */

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** 150000 → "$1,500.00" (integer arithmetic: no floating-point rounding on cents). */
export function formatUsd(cents: number): string {
  const dollars = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `$${dollars}.${(cents % 100).toString().padStart(2, "0")}`;
}

/** "2026-01-05" → "January 5, 2026" (a calendar date: no time zone involved). */
export function formatDate(isoDate: string): string {
  const [year, month, day] = isoDate.split("-").map(Number);
  return `${MONTHS[month - 1]} ${day}, ${year}`;
}

/** An instant in UTC: "January 5, 2026 at 14:03 UTC". */
export function formatInstant(at: Date): string {
  const time = `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
  return `${formatDate(at.toISOString().slice(0, 10))} at ${time} UTC`;
}

export function formatPremium(premium: { cadence: "upfront" | "monthly"; amountCents: number }): string {
  return premium.cadence === "monthly" ? `${formatUsd(premium.amountCents)} per month` : `${formatUsd(premium.amountCents)} paid upfront`;
}

/** The address as stored, on two lines: "123 Main St" / "Austin, TX 78701". */
export function addressLines(address: { lineOne: string; city: string; state: string; zip: string }): string[] {
  return [address.lineOne, `${address.city}, ${address.state} ${address.zip}`];
}
