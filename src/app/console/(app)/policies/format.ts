/** Shared formatting of the console's policy screens. */
export const money = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export const PRODUCT_LABELS: Record<string, string> = {
  security_deposit_insurance: "Deposit insurance",
  renter_guarantee_insurance: "Lease guarantee",
  service_deposit: "Service deposit",
};

export const day = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "short", day: "numeric" });
