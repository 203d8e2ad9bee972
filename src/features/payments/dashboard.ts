import type { Config } from "../../server/config";

/**
 * The processor's own page of a payment, refund or dispute, for staff (decisions §18, the console's
 * payments): Stripe's dashboard, under `/test/` when the deployment runs on test keys. The simulated
 * processor has no dashboard: null.
 */
export function dashboardUrl(config: Pick<Config, "stripe">, processor: string, kind: "payment" | "dispute", id: string | null): string | null {
  if (processor !== "stripe" || !id) return null;
  const test = /^(sk|rk)_test_/.test(config.stripe?.secretKey ?? "");
  const base = `https://dashboard.stripe.com${test ? "/test" : ""}`;
  // A refund has no page of its own: it is shown on its payment's.
  return kind === "dispute" ? `${base}/disputes/${encodeURIComponent(id)}` : `${base}/payments/${encodeURIComponent(id)}`;
}
