import type { IncomingMessage, ServerResponse } from "node:http";
import type Stripe from "stripe";
import { getConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { restAnswerOf } from "../../../server/http/error-wire";
import { addJob } from "../../../server/jobs/define-task";
import { logger } from "../../../server/log";
import { toAppError } from "../../../server/to-app-error";
import { stripeEventHandled } from "./event-handlers";
import { stripeEventHandleDeclaration } from "./stripe_event__handle";
import { stripeEvents } from "./stripe-events.table";
import { stripeSdk } from "./stripe-sdk";

/** decisions §18: a signature older (or newer) than this is refused, as Stripe's own libraries default to. */
export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;
/** Stripe's events are small (tens of kB); this bounds what is read before the signature is checked. */
const MAX_EVENT_BYTES = 512 * 1024;

export const STRIPE_WEBHOOK_MESSAGES = {
  notConfigured: "Stripe is not the payment processor of this deployment",
  method: "Only POST is accepted",
  missingSignature: "Stripe-Signature header is missing",
  badSignature: "Stripe-Signature does not verify for this body (wrong secret, altered body, or older than 300 seconds)",
  tooLarge: "Event body is too large",
} as const;

/**
 * `POST /stripe/webhook` (decisions §18 Stripe's webhooks; docs/operations.md, Stripe). The raw
 * body's signature is checked against `STRIPE_WEBHOOK_SECRET` with 300 s tolerance (the SDK's
 * `constructEvent`): 400 when missing or wrong. A verified event of a type handled here is kept
 * with its job in one transaction, once per event id (a replay finds the row and adds nothing), and
 * answered 200 at once; the job handles it. Types not handled: 200, nothing kept. The database away:
 * 503 with `Retry-After`, and Stripe retries later.
 */
export async function stripeWebhook(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const config = getConfig();
  if (!config.stripe) return answer(res, 404, { status_code: 404, error: STRIPE_WEBHOOK_MESSAGES.notConfigured });
  if (req.method !== "POST") return answer(res, 405, { status_code: 405, error: STRIPE_WEBHOOK_MESSAGES.method }, { Allow: "POST" });
  const raw = await readRaw(req);
  if (raw === undefined) return answer(res, 413, { status_code: 413, error: STRIPE_WEBHOOK_MESSAGES.tooLarge });
  const signature = req.headers["stripe-signature"];
  if (typeof signature !== "string" || signature === "") return answer(res, 400, { status_code: 400, error: STRIPE_WEBHOOK_MESSAGES.missingSignature });
  const sdk = await stripeSdk();
  let event: Stripe.Event;
  try {
    event = sdk.webhooks.constructEvent(raw, signature, config.stripe.webhookSecret, STRIPE_SIGNATURE_TOLERANCE_SECONDS);
  } catch (error) {
    logger().warn({ reason: error instanceof Error ? error.message : "unknown" }, "stripe webhook refused: signature");
    return answer(res, 400, { status_code: 400, error: STRIPE_WEBHOOK_MESSAGES.badSignature });
  }
  if (!stripeEventHandled(event.type)) return answer(res, 200, { received: true, handled: false });
  try {
    const db = await getDb();
    const kept = await db.transaction(async (tx) => {
      const inserted = await tx
        .insert(stripeEvents)
        .values({ id: event.id, type: event.type, payload: event })
        .onConflictDoNothing({ target: stripeEvents.id })
        .returning({ id: stripeEvents.id });
      if (inserted.length > 0) await addJob(tx, stripeEventHandleDeclaration, { event_id: event.id }, { jobKey: `stripe_event:${event.id}` });
      return inserted.length > 0;
    });
    return answer(res, 200, { received: true, handled: true, ...(kept ? {} : { duplicate: true }) });
  } catch (error) {
    const known = toAppError(error);
    if (known.kind !== "unavailable") throw error;
    const wire = restAnswerOf(known);
    return answer(res, wire.status, wire.body, wire.headers);
  }
}

async function readRaw(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_EVENT_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function answer(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}
