import type { Config } from "../../server/config";
import type { Db } from "../../server/db/client";
import { errors } from "../../server/errors";
import { PAYMENT_MESSAGES } from "./messages";
import { type RefundOutcome, type RefundPort, SimulatedRefunds } from "./refund-port";
import { StripeRefunds } from "./stripe/stripe-refunds";

/** Production without a processor (decisions §10): nothing can be refunded. */
class NoRefunds implements RefundPort {
  readonly name = "none";
  async refund(): Promise<RefundOutcome> {
    throw errors.unavailable(PAYMENT_MESSAGES.notConfigured);
  }
  async retrieveRefund(): Promise<RefundOutcome> {
    throw errors.unavailable(PAYMENT_MESSAGES.notConfigured);
  }
}

/** The refunds of this deployment's processor (`PAYMENT_PROCESSOR`), as `processorFor` picks its payments. */
export function refundsFor(config: Pick<Config, "paymentProcessor" | "stripe">, options: { db?: Db } = {}): RefundPort {
  switch (config.paymentProcessor) {
    case "simulated":
      return new SimulatedRefunds(options);
    case "stripe":
      return config.stripe ? new StripeRefunds(config.stripe) : new NoRefunds();
    default:
      return new NoRefunds();
  }
}
