import { afterAll, beforeAll } from "vitest";
import { resetConfig } from "../server/config";
import { webDoorUrl } from "./http";
import { type StripeTestServer, startStripeServer } from "./stripe-server";

const VARIABLES = ["PAYMENT_PROCESSOR", "STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET", "STRIPE_API_BASE"] as const;

/**
 * A test file's deployment on Stripe (decisions §18): the local Stripe-compatible server started,
 * its webhooks sent to the door's `/stripe/webhook`, and `PAYMENT_PROCESSOR=stripe` with its keys and
 * `STRIPE_API_BASE` set for the file (restored after). Answers the server once `beforeAll` has run.
 */
export function stripeServerOfThisFile(extra: Record<string, string> = {}): () => StripeTestServer {
  let server: StripeTestServer | undefined;
  const saved: Record<string, string | undefined> = {};
  const names = [...VARIABLES, ...Object.keys(extra)];
  beforeAll(async () => {
    server = await startStripeServer({ webhookUrl: `${await webDoorUrl()}/stripe/webhook` });
    for (const name of names) saved[name] = process.env[name];
    Object.assign(process.env, {
      PAYMENT_PROCESSOR: "stripe",
      STRIPE_SECRET_KEY: server.secretKey,
      STRIPE_PUBLISHABLE_KEY: server.publishableKey,
      STRIPE_WEBHOOK_SECRET: server.webhookSecret,
      STRIPE_API_BASE: server.url,
      ...extra,
    });
    resetConfig();
  });
  afterAll(async () => {
    for (const name of names) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    resetConfig();
    await server?.close();
  });
  return () => {
    if (!server) throw new Error("the Stripe test server starts in beforeAll");
    return server;
  };
}
