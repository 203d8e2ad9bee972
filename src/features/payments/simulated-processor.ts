import { eq } from "drizzle-orm";
import { TransactionRollbackError } from "drizzle-orm/errors";
import { type Db, getDb, type Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { randomToken } from "../../server/secrets";
import { type CardBrand, type CardInput, type ValidCard, validateCard } from "./card";
import { DECLINE_CODES, PAYMENT_MESSAGES } from "./messages";
import { type PaymentCharge, paymentCharges, paymentFailNext, paymentMethods } from "./payments.table";
import { type ChargeRequest, type ChargeResult, checkChargeRequest, type PaymentProcessor, type StoredMethod } from "./processor";

/** decisions §10, staging magic values: these two numbers; any other Luhn-valid number pays. */
export const SIMULATED_CARDS = { pays: "4242424242424242", declines: "4000000000000002" } as const;

const NAME = "simulated";

type Options = { db?: Db; now?: () => Date };

/**
 * Staging's processor (decisions §10): it records every charge attempt in `payment_charges` and never
 * contacts anything. The magic decline card declines; a subject armed with `failNext` (decisions §11,
 * `billing fail-next`) declines its next charge once; everything else that passes the checks pays.
 */
export class SimulatedProcessor implements PaymentProcessor {
  readonly name = NAME;
  readonly #db?: Db;
  readonly #now: () => Date;

  constructor(options: Options = {}) {
    this.#db = options.db;
    this.#now = options.now ?? (() => new Date());
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    checkChargeRequest(request);
    const db = this.#db ?? (await getDb());
    const source = request.card ? fromCard(validateCard(request.card, this.#now())) : await fromMethod(db, request.methodId as string);
    const subject = request.metadata?.subject ?? null;

    const earlier = await chargeByKey(db, request.idempotencyKey);
    if (earlier) return replay(earlier, request);

    try {
      const row = await db.transaction(async (tx) => {
        // The flag is used by the next charge of its subject whatever that charge's card would do.
        const armed = subject ? await tx.delete(paymentFailNext).where(eq(paymentFailNext.subject, subject)).returning() : [];
        const declined = source.magicDecline || armed.length > 0;
        const [inserted] = await tx
          .insert(paymentCharges)
          .values({
            id: `ch_${randomToken(16)}`,
            idempotencyKey: request.idempotencyKey,
            amountCents: request.amountCents,
            currency: request.currency,
            status: declined ? "declined" : "succeeded",
            declineCode: declined ? DECLINE_CODES.cardDeclined : null,
            last4: source.last4,
            brand: source.brand,
            methodId: source.methodId,
            subject,
            description: request.description,
            processor: NAME,
          })
          .onConflictDoNothing({ target: paymentCharges.idempotencyKey })
          .returning();
        // A concurrent call with the same key won: undo this one (the flag stays armed) and answer its result.
        if (!inserted) tx.rollback();
        return inserted;
      });
      return resultOf(row);
    } catch (error) {
      if (!(error instanceof TransactionRollbackError)) throw error;
      const winner = await chargeByKey(db, request.idempotencyKey);
      if (!winner) throw errors.internal(error);
      return replay(winner, request);
    }
  }

  async storeMethod(input: CardInput): Promise<StoredMethod> {
    const card = validateCard(input, this.#now());
    // A card the processor refuses is refused when kept, as real processors verify on attach.
    if (card.revealNumber() === SIMULATED_CARDS.declines) throw errors.invalidFields(PAYMENT_MESSAGES.declined, { number: [PAYMENT_MESSAGES.declined] });
    const db = this.#db ?? (await getDb());
    const [row] = await db
      .insert(paymentMethods)
      .values({
        id: `pm_${randomToken(16)}`,
        processor: NAME,
        last4: card.last4,
        brand: card.brand,
        expMonth: card.expMonth,
        expYear: card.expYear,
        token: `simtok_${randomToken(24)}`,
      })
      .returning();
    return { methodId: row.id, last4: row.last4, brand: row.brand as CardBrand, expMonth: row.expMonth, expYear: row.expYear };
  }

  /** Staging (`billing fail-next`, decisions §11): the next charge of `subject` declines, once. */
  async failNext(subject: string): Promise<void> {
    if (subject.trim() === "") throw errors.invalid(PAYMENT_MESSAGES.subjectBlank, "subject");
    const db = this.#db ?? (await getDb());
    await db.insert(paymentFailNext).values({ subject }).onConflictDoNothing();
  }
}

type Source = { last4: string; brand: CardBrand; methodId: string | null; magicDecline: boolean };

function fromCard(card: ValidCard): Source {
  return { last4: card.last4, brand: card.brand, methodId: null, magicDecline: card.revealNumber() === SIMULATED_CARDS.declines };
}

async function fromMethod(tx: Tx, methodId: string): Promise<Source> {
  const [method] = await tx.select().from(paymentMethods).where(eq(paymentMethods.id, methodId));
  if (!method || method.processor !== NAME) throw errors.notFound(PAYMENT_MESSAGES.methodNotFound);
  return { last4: method.last4, brand: method.brand as CardBrand, methodId: method.id, magicDecline: false };
}

async function chargeByKey(tx: Tx, idempotencyKey: string): Promise<PaymentCharge | undefined> {
  const [row] = await tx.select().from(paymentCharges).where(eq(paymentCharges.idempotencyKey, idempotencyKey));
  return row;
}

/** The first result of a key; the same key for another amount or subject is the caller's bug, never charged. */
function replay(row: PaymentCharge, request: ChargeRequest): ChargeResult {
  if (row.amountCents !== request.amountCents || row.subject !== (request.metadata?.subject ?? null)) {
    throw errors.conflict(PAYMENT_MESSAGES.idempotencyMismatch);
  }
  return resultOf(row);
}

function resultOf(row: PaymentCharge): ChargeResult {
  // The simulated processor's own rows always carry the card it was given.
  const brand = row.brand as CardBrand;
  const last4 = row.last4 ?? "";
  if (row.status === "succeeded") return { status: "succeeded", chargeId: row.id, last4, brand };
  return {
    status: "declined",
    chargeId: row.id,
    code: row.declineCode ?? DECLINE_CODES.cardDeclined,
    message: PAYMENT_MESSAGES.declined,
    last4,
    brand,
  };
}
