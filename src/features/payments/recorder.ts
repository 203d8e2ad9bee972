import { and, eq, ne, sql } from "drizzle-orm";
import type { Db, Tx } from "../../server/db/client";
import { randomToken } from "../../server/secrets";
import { type PaymentCharge, type PaymentStatus, paymentCharges, paymentCustomers, paymentMethods } from "./payments.table";
import type { IntentRequest, OpenIntent, PaymentOutcome, PaymentPort } from "./port";

/**
 * The processor-neutral recorder of payments (decisions §18 "What the current code assumes that
 * Stripe breaks"; docs/decisions.md, Payments through Stripe). Billing and the flow read
 * `payment_charges` and `payment_methods`; whichever adapter talked to the processor, these functions
 * write them. The rule they keep: an intent's id is recorded against our row as soon as it is
 * created, and looked up before creating another, because the processor forgets idempotency keys
 * (Stripe: about 24 hours) while our rows may be replayed days later.
 */

export async function paymentByKey(db: Tx, idempotencyKey: string): Promise<PaymentCharge | undefined> {
  const [row] = await db.select().from(paymentCharges).where(eq(paymentCharges.idempotencyKey, idempotencyKey));
  return row;
}

export async function paymentByIntent(db: Tx, intentId: string): Promise<PaymentCharge | undefined> {
  const [row] = await db.select().from(paymentCharges).where(eq(paymentCharges.intentId, intentId));
  return row;
}

/**
 * The intent of a record: the one recorded under its key (retrieved, never created again), else
 * created with the key as `Idempotency-Key` and recorded at once. Two callers racing create one
 * intent (the processor's idempotency) and record it once (the key's unique index).
 */
export async function intentFor(db: Db, port: PaymentPort, request: IntentRequest): Promise<OpenIntent & { row: PaymentCharge }> {
  const earlier = await paymentByKey(db, request.idempotencyKey);
  if (earlier?.intentId) {
    const open = await port.retrieveIntent(earlier.intentId);
    return { ...open, row: (await recordOutcome(db, port.name, open.outcome)) ?? earlier };
  }
  const open = await port.createIntent(request);
  await db
    .insert(paymentCharges)
    .values({
      id: `ch_${randomToken(16)}`,
      idempotencyKey: request.idempotencyKey,
      amountCents: request.amountCents,
      currency: request.currency,
      status: "pending",
      subject: request.metadata.subject ?? null,
      description: request.description,
      processor: port.name,
      intentId: open.intentId,
    })
    .onConflictDoUpdate({
      target: paymentCharges.idempotencyKey,
      set: { intentId: sql`coalesce(${paymentCharges.intentId}, excluded.intent_id)`, updatedAt: new Date() },
    });
  const row = (await recordOutcome(db, port.name, open.outcome)) ?? ((await paymentByKey(db, request.idempotencyKey)) as PaymentCharge);
  return { ...open, row };
}

const STATUS_OF: Record<PaymentOutcome["status"], PaymentStatus> = {
  succeeded: "succeeded",
  processing: "processing",
  requires_action: "requires_action",
  requires_payment_method: "pending",
  declined: "declined",
  canceled: "canceled",
};

/**
 * Writes what the processor said of an intent on its row (and the card kept, for a payment that
 * saved it). `succeeded` is final: an older answer arriving late (a webhook out of order) never
 * undoes it. Answers the row, or undefined when no row records this intent.
 */
export async function recordOutcome(db: Tx, processor: string, outcome: PaymentOutcome): Promise<PaymentCharge | undefined> {
  let methodId: string | null = null;
  let card: { last4: string; brand: string } | null = null;
  if (outcome.status === "succeeded" && outcome.method) {
    const method = outcome.method;
    card = { last4: method.last4, brand: method.brand };
    if (method.customerId) methodId = await recordMethod(db, processor, method);
  }
  const decline = outcome.status === "declined" ? outcome.decline : outcome.status === "requires_payment_method" ? outcome.lastDecline : null;
  const [row] = await db
    .update(paymentCharges)
    .set({
      status: STATUS_OF[outcome.status],
      declineCode: decline?.code ?? null,
      ...(card ?? {}),
      ...(methodId ? { methodId } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(paymentCharges.intentId, outcome.intentId), ne(paymentCharges.status, "succeeded")))
    .returning();
  return row ?? paymentByIntent(db, outcome.intentId);
}

/** A card saved on a customer (decisions §18: off-session charges); the same processor method is one row. */
export async function recordMethod(
  db: Tx,
  processor: string,
  method: NonNullable<Extract<PaymentOutcome, { status: "succeeded" }>["method"]>,
): Promise<string> {
  const [existing] = await db
    .select({ id: paymentMethods.id })
    .from(paymentMethods)
    .where(and(eq(paymentMethods.processor, processor), eq(paymentMethods.token, method.processorMethodId)));
  if (existing) return existing.id;
  const [row] = await db
    .insert(paymentMethods)
    .values({
      id: `pm_${randomToken(16)}`,
      processor,
      token: method.processorMethodId,
      customerId: method.customerId,
      last4: method.last4,
      brand: method.brand,
      expMonth: method.expMonth,
      expYear: method.expYear,
    })
    .onConflictDoNothing()
    .returning({ id: paymentMethods.id });
  if (row) return row.id;
  return recordMethod(db, processor, method);
}

/**
 * The processor's customer of a renter (decisions §18: a Customer per renter), created once with
 * `Idempotency-Key` `customer:<email>` and recorded; a replay (another application, a second tab)
 * finds the row and creates no second customer.
 */
export async function customerFor(db: Db, port: PaymentPort, renter: { email: string; name: string }): Promise<string> {
  const email = renter.email.trim().toLowerCase();
  const where = and(eq(paymentCustomers.processor, port.name), eq(paymentCustomers.renterEmail, email));
  const [known] = await db.select().from(paymentCustomers).where(where);
  if (known) return known.customerId;
  const { customerId } = await port.createCustomer({ idempotencyKey: `customer:${email}`, email, name: renter.name, metadata: { renter_email: email } });
  await db.insert(paymentCustomers).values({ processor: port.name, renterEmail: email, customerId }).onConflictDoNothing();
  const [kept] = await db.select().from(paymentCustomers).where(where);
  return kept?.customerId ?? customerId;
}
