import type { Config } from "../../server/config";
import type { Db } from "../../server/db/client";
import { errors } from "../../server/errors";
import { PAYMENT_MESSAGES } from "./messages";
import { paymentPortFor } from "./port-for";
import type { ChargeRequest, ChargeResult, PaymentProcessor, StoredMethod } from "./processor";
import { SimulatedProcessor } from "./simulated-processor";
import { PortBillingProcessor } from "./stripe/billing-adapter";

/**
 * Production until a real processor is configured (decisions §10): every payment is refused with a
 * 503 (`unavailable`) whose message the flow shows on a clear page. Nothing is recorded.
 */
export class NotConfiguredProcessor implements PaymentProcessor {
  readonly name = "none";

  async charge(_request: ChargeRequest): Promise<ChargeResult> {
    throw errors.unavailable(PAYMENT_MESSAGES.notConfigured);
  }

  async storeMethod(): Promise<StoredMethod> {
    throw errors.unavailable(PAYMENT_MESSAGES.notConfigured);
  }
}

type Options = { db?: Db; now?: () => Date };

/**
 * The processor of this deployment: `PAYMENT_PROCESSOR` (`simulated` by default in staging, `none` in
 * production; config validation refuses `simulated` in production). A real processor is one more case.
 */
export function processorFor(config: Pick<Config, "paymentProcessor"> & Partial<Pick<Config, "stripe">>, options: Options = {}): PaymentProcessor {
  switch (config.paymentProcessor) {
    case "simulated":
      return new SimulatedProcessor(options);
    case "none":
      return new NotConfiguredProcessor();
    case "stripe": {
      // Billing's charges through the token-based port (decisions §18); no Stripe keys: refused as `none`.
      const port = paymentPortFor({ paymentProcessor: config.paymentProcessor, stripe: config.stripe });
      return port ? new PortBillingProcessor(port, options) : new NotConfiguredProcessor();
    }
  }
}

/** `billing fail-next` (decisions §4, §11): only the simulated processor can be told to decline. */
export async function failNextCharge(processor: PaymentProcessor, subject: string): Promise<{ subject: string }> {
  if (!(processor instanceof SimulatedProcessor)) throw errors.invalid(PAYMENT_MESSAGES.failNextNeedsSimulated);
  await processor.failNext(subject);
  return { subject };
}
