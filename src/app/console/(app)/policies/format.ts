/** Shared formatting of the console's policy screens. */
export const money = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const PRODUCT_LABELS: Record<string, string> = {
  security_deposit_insurance: "Deposit insurance",
  renter_guarantee_insurance: "Lease guarantee",
  service_deposit: "Service deposit",
};

export const day = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "short", day: "numeric" });

/** "1,800.50" or "$1800" → 180050 cents; undefined when it is not dollars with at most two decimals. */
export function centsOf(text: string): number | undefined {
  const clean = text.replace(/[$,\s]/g, "");
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(clean)) return undefined;
  const [dollars, fraction = ""] = clean.split(".");
  return Number(dollars) * 100 + Number(fraction.padEnd(2, "0"));
}
