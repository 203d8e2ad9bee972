import { randomBytes } from "node:crypto";
import { getConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { logger } from "../../../server/log";
import type { LinkParams } from "../flow/contract";
import { loadRecord } from "../flow/state";

/**
 * The sources Stripe.js needs, from Stripe's integration security guide (docs.stripe.com/security/guide,
 * "Content Security Policy"), for the Payment Element with cards: its script, its frames (the card
 * fields and 3-D Secure) and its API. Nothing else of Stripe's (no Maps, no Link's extra hosts).
 */
export const STRIPE_CSP = {
  script: ["https://js.stripe.com", "https://*.js.stripe.com"],
  frame: ["https://js.stripe.com", "https://*.js.stripe.com", "https://hooks.stripe.com"],
  connect: ["https://api.stripe.com"],
} as const;

/** The directives added to the pay step's policy; `nonce` is what Next.js puts on its own inline scripts. */
export function payStepDirectives(nonce: string): string {
  return [
    `script-src 'self' 'nonce-${nonce}' ${STRIPE_CSP.script.join(" ")}`,
    `frame-src ${STRIPE_CSP.frame.join(" ")}`,
    `connect-src 'self' ${STRIPE_CSP.connect.join(" ")}`,
  ].join("; ");
}

/** The link of an enrollment page's path and query, as the page reads it. */
function linkOf(pathname: string, query: URLSearchParams): LinkParams | undefined {
  const [, , flow, owner, source, id] = pathname.split("/");
  if (!flow || !owner || !source || !id) return undefined;
  try {
    const one = (name: string) => query.get(name) ?? undefined;
    return {
      flow,
      owner: decodeURIComponent(owner),
      source: decodeURIComponent(source),
      id: decodeURIComponent(id),
      email: one("email"),
      sig: one("sig"),
      selected_product: one("selected_product"),
      cadence: one("cadence"),
    };
  } catch {
    return undefined;
  }
}

/**
 * decisions §18: the pay step's Content-Security-Policy allows exactly what Stripe.js needs, on that
 * step only: an enrollment page answers it (with a fresh nonce) when the processor is Stripe and the
 * link's application is at the pay step, unpaid. Anything else, or a lookup that fails: undefined
 * (the page keeps its framing policy alone; the pay form then explains that card payment could not load).
 */
export async function payStepNonce(pathname: string, query: URLSearchParams): Promise<string | undefined> {
  if (!pathname.startsWith("/enroll/") || getConfig().paymentProcessor !== "stripe") return undefined;
  const link = linkOf(pathname, query);
  if (!link) return undefined;
  try {
    const record = await loadRecord(await getDb(), link);
    const application = record?.application;
    if (application?.status !== "created" || application.step !== "pay" || application.paidAt) return undefined;
    return randomBytes(16).toString("base64");
  } catch (error) {
    logger().warn({ err: error }, "pay step lookup failed: no Stripe policy");
    return undefined;
  }
}
