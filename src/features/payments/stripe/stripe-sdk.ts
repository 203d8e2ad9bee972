import type Stripe from "stripe";
import type { Config } from "../../../server/config";

/**
 * The API version this code was written and tested against (decisions §18: pinned). The SDK's own
 * version is the same; it is named here so an SDK upgrade that moves it fails to compile rather
 * than silently changing the shapes the adapters (`stripe-processor.ts`, `stripe-refunds.ts`,
 * `stripe-card-setup.ts`) read.
 */
export const STRIPE_API_VERSION = "2026-10-28.endive" satisfies Stripe.LatestApiVersion;

/** What a deployment configures of Stripe (`Config["stripe"]`, set when Stripe is the processor). */
export type StripeSettings = NonNullable<Config["stripe"]>;

let loading: Promise<typeof Stripe> | undefined;
let loaded: typeof Stripe | undefined;

/**
 * The SDK, loaded with the first call to Stripe rather than with every process that imports the
 * router: its 200-odd modules took a fifth of a second of every start (docs/decisions.md "Loading on
 * first use").
 */
export function stripeSdk(): Promise<typeof Stripe> {
  loading ??= import("stripe").then((module) => {
    loaded = module.default;
    return loaded;
  });
  return loading;
}

/** A Stripe error (of any type). Nothing is one before the SDK has loaded: nothing called Stripe yet. */
export function isStripeError(error: unknown): error is Stripe.errors.StripeError {
  return loaded !== undefined && error instanceof loaded.errors.StripeError;
}

/** A card's refusal: a Stripe error of type `StripeCardError` (the SDK's class of that name has it). */
export function isStripeCardError(error: unknown): error is Stripe.errors.StripeCardError {
  return isStripeError(error) && error.type === "StripeCardError";
}

/**
 * The SDK client of this deployment (Stripe itself, or in staging and tests `STRIPE_API_BASE`'s
 * server), made on first use and kept: it holds Stripe's keep-alive connections.
 */
export function stripeClient(settings: StripeSettings): () => Promise<Stripe> {
  let client: Promise<Stripe> | undefined;
  return () => {
    client ??= stripeSdk().then((Sdk) => {
      const base = settings.apiBase ? new URL(settings.apiBase) : undefined;
      return new Sdk(settings.secretKey, {
        apiVersion: STRIPE_API_VERSION,
        // The SDK retries network failures and 409s with the same Idempotency-Key (never a second charge).
        maxNetworkRetries: 2,
        timeout: 20_000,
        appInfo: { name: "partner-integration-service" },
        ...(base
          ? { host: base.hostname, port: base.port || (base.protocol === "https:" ? 443 : 80), protocol: base.protocol === "https:" ? "https" : "http" }
          : {}),
      });
    });
    return client;
  };
}
