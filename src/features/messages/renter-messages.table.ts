import { sql } from "drizzle-orm";
import { type AnyPgColumn, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { propertyOwners } from "../owners/owners.table";
import { policies } from "../policies/policies.table";

/** What a renter is told about (decisions §19 Messages), one template each (`templates/`). */
export const RENTER_MESSAGE_KINDS = [
  "account_sign_in",
  "policy_issued",
  "policy_documents_updated",
  "payment_receipt",
  "payment_failed",
  "delinquency_resolved",
  "application_declined",
  "policy_canceled",
  "coverage_ending",
] as const;
export type RenterMessageKind = (typeof RENTER_MESSAGE_KINDS)[number];

/**
 * `queued`: waiting for the send task (rendered by it); `sending`: a worker holds the lease and is
 * talking to the SMTP server; `sent`: the server accepted it (250); `failed`: refused for good (5xx)
 * or not accepted within 24 h; `kept`: rendered and kept, not sent, because no `SMTP_URL` is set
 * (the staging default, decisions §19). docs/decisions.md, "Renter messages: the outbox".
 */
export const RENTER_MESSAGE_STATUSES = ["queued", "sending", "sent", "failed", "kept"] as const;
export type RenterMessageStatus = (typeof RENTER_MESSAGE_STATUSES)[number];

/**
 * The renter message outbox (decisions §19 Outbox): a row is written in the transaction of the change
 * that causes it, its subject at once and its HTML and text by the send task (React rendering stays
 * out of the request's transaction and out of the pages' bundle). The row is also the message's
 * record: the console lists it and shows it as the renter sees it.
 */
export const renterMessages = pgTable(
  "renter_messages",
  {
    id: serial("id").primaryKey(),
    kind: text("kind", { enum: RENTER_MESSAGE_KINDS }).notNull(),
    /** The address as it was when the message was written (docs/decisions.md, "Renter messages: the outbox"). */
    toAddress: text("to_address").notNull(),
    subject: text("subject").notNull(),
    /** The template's input: figures and absolute links, as of the change that caused the message. */
    data: jsonb("data").notNull(),
    html: text("html"),
    text: text("text"),
    status: text("status", { enum: RENTER_MESSAGE_STATUSES }).notNull().default("queued"),
    /** SMTP conversations started (each claim of the lease). */
    attempts: integer("attempts").notNull().default(0),
    /** The server's last answer (`250 2.0.0 Ok: queued as …`, `451 4.3.0 …`) or why there was none (timeout, refused connection). */
    lastAnswer: text("last_answer"),
    /** The last answer's SMTP code, when the server gave one. */
    lastAnswerCode: integer("last_answer_code"),
    /** A worker holding `sending` owns the message until then; after it, the message is recovered. */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** When the next attempt is due (`queued` after a transient refusal). */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    /** Transient failures are retried until then (24 h after the message was written, decisions §19). */
    giveUpAt: timestamp("give_up_at", { withTimezone: true }).notNull(),
    /** The `Message-ID` header, the same on every attempt, so a receiving system can fold a duplicate. */
    messageId: text("message_id").notNull(),
    ownerId: integer("owner_id").references(() => propertyOwners.id, { onDelete: "set null" }),
    policyId: integer("policy_id").references(() => policies.id, { onDelete: "set null" }),
    /** Kept as text for search: it outlives a policy removed by a reset. */
    policyNumber: text("policy_number"),
    /** One message per cause (a charge's receipt, a policy's notice of its end): a second write is ignored. */
    dedupeKey: text("dedupe_key"),
    /** A copy made by the console's resend: the message it copies. */
    resentFromId: integer("resent_from_id").references((): AnyPgColumn => renterMessages.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("renter_messages_dedupe_key").on(t.dedupeKey),
    index("renter_messages_to_idx").on(sql`lower(${t.toAddress})`, t.id),
    index("renter_messages_policy_number_idx").on(t.policyNumber, t.id),
    index("renter_messages_kind_idx").on(t.kind, t.id),
    index("renter_messages_status_idx").on(t.status, t.id),
    index("renter_messages_owner_idx").on(t.ownerId),
    index("renter_messages_policy_idx").on(t.policyId),
    index("renter_messages_resent_from_idx").on(t.resentFromId),
    // Retention's walks (docs/decisions.md, "Retention: renter messages and the account"): settled
    // messages by their last change, and settled sign-in messages, kept a shorter time.
    index("renter_messages_settled_idx").on(t.updatedAt).where(sql`${t.status} in ('sent', 'failed', 'kept')`),
    index("renter_messages_sign_in_settled_idx").on(t.updatedAt).where(sql`${t.kind} = 'account_sign_in' and ${t.status} in ('sent', 'failed', 'kept')`),
  ],
);

export type RenterMessage = typeof renterMessages.$inferSelect;
