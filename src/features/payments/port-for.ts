import type { Config } from "../../server/config";
import type { PaymentPort } from "./port";
import { StripeProcessor } from "./stripe/stripe-processor";

let cached: { key: string; port: PaymentPort } | undefined;

/**
 * The token-based processor of this deployment (decisions §18), or undefined when payments go
 * through the card form's processor (`simulated`, `none`: `processorFor`). One SDK client per
 * configuration, kept: it holds Stripe's keep-alive connections.
 */
export function paymentPortFor(config: Pick<Config, "paymentProcessor" | "stripe">): PaymentPort | undefined {
  if (config.paymentProcessor !== "stripe" || !config.stripe) return undefined;
  const key = `${config.stripe.secretKey}|${config.stripe.apiBase ?? ""}`;
  if (cached?.key !== key) cached = { key, port: new StripeProcessor(config.stripe) };
  return cached.port;
}
