import type { Config } from "../../server/config";
import type { CardSetupPort } from "./card-setup-port";
import { StripeCardSetup } from "./stripe/stripe-card-setup";

/** This deployment's card setup: Stripe's SetupIntents, or none (the simulator keeps its card form, account/payments.ts). */
export function cardSetupFor(config: Pick<Config, "paymentProcessor" | "stripe">): CardSetupPort | undefined {
  return config.paymentProcessor === "stripe" && config.stripe ? new StripeCardSetup(config.stripe) : undefined;
}
