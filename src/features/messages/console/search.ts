import { and, desc, eq, lt, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { propertyOwners } from "../../owners/owners.table";
import { MESSAGE_MESSAGES as M } from "../messages";
import { RENTER_MESSAGE_KINDS, RENTER_MESSAGE_STATUSES, renterMessages } from "../renter-messages.table";

export const messageSearchInput = z.object({
  /** The recipient, case-insensitively, whole or in part. */
  email: z.string().trim().max(320).optional(),
  policyNumber: z.string().trim().max(100).optional(),
  kind: z.enum(RENTER_MESSAGE_KINDS).optional(),
  status: z.enum(RENTER_MESSAGE_STATUSES).optional(),
  ownerId: z.number().int().positive().max(2_147_483_647).optional(),
  cursor: z.number().int().positive().max(2_147_483_647).nullish(),
  limit: z.number().int().min(1).max(200).default(50),
});

export const messageRow = z.object({
  id: z.number().int(),
  kind: z.enum(RENTER_MESSAGE_KINDS),
  to: z.string(),
  subject: z.string(),
  status: z.enum(RENTER_MESSAGE_STATUSES),
  attempts: z.number().int(),
  last_answer: z.string().nullable(),
  last_answer_code: z.number().int().nullable(),
  policy_number: z.string().nullable(),
  owner_name: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  resent_from_id: z.number().int().nullable(),
});

export const messageDetail = messageRow.extend({
  html: z.string().nullable(),
  text: z.string().nullable(),
  message_id: z.string(),
  give_up_at: z.string(),
  resends: z.array(z.number().int()),
});

const columns = {
  id: renterMessages.id,
  kind: renterMessages.kind,
  to: renterMessages.toAddress,
  subject: renterMessages.subject,
  status: renterMessages.status,
  attempts: renterMessages.attempts,
  lastAnswer: renterMessages.lastAnswer,
  lastAnswerCode: renterMessages.lastAnswerCode,
  policyNumber: renterMessages.policyNumber,
  ownerName: propertyOwners.name,
  createdAt: renterMessages.createdAt,
  sentAt: renterMessages.sentAt,
  nextAttemptAt: renterMessages.nextAttemptAt,
  resentFromId: renterMessages.resentFromId,
};

type Selected = {
  id: number;
  kind: z.infer<typeof messageRow>["kind"];
  to: string;
  subject: string;
  status: z.infer<typeof messageRow>["status"];
  attempts: number;
  lastAnswer: string | null;
  lastAnswerCode: number | null;
  policyNumber: string | null;
  ownerName: string | null;
  createdAt: Date;
  sentAt: Date | null;
  nextAttemptAt: Date | null;
  resentFromId: number | null;
};

function rowOf(row: Selected): z.infer<typeof messageRow> {
  return {
    id: row.id,
    kind: row.kind,
    to: row.to,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    last_answer: row.lastAnswer,
    last_answer_code: row.lastAnswerCode,
    policy_number: row.policyNumber,
    owner_name: row.ownerName,
    created_at: row.createdAt.toISOString(),
    sent_at: row.sentAt?.toISOString() ?? null,
    next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    resent_from_id: row.resentFromId,
  };
}

/** Messages newest first (decisions §19: to, kind, subject, status, time), filtered; keyset paging by id. */
export async function searchMessages(db: Tx, input: z.input<typeof messageSearchInput>): Promise<z.infer<typeof messageRow>[]> {
  const filters = messageSearchInput.parse(input);
  const conditions: SQL[] = [];
  if (filters.email) conditions.push(sql`lower(${renterMessages.toAddress}) like ${`%${escapeLike(filters.email.toLowerCase())}%`}`);
  if (filters.policyNumber) conditions.push(eq(renterMessages.policyNumber, filters.policyNumber.toUpperCase()));
  if (filters.kind) conditions.push(eq(renterMessages.kind, filters.kind));
  if (filters.status) conditions.push(eq(renterMessages.status, filters.status));
  if (filters.ownerId) conditions.push(eq(renterMessages.ownerId, filters.ownerId));
  if (filters.cursor) conditions.push(lt(renterMessages.id, filters.cursor));
  const rows = await db
    .select(columns)
    .from(renterMessages)
    .leftJoin(propertyOwners, eq(propertyOwners.id, renterMessages.ownerId))
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(renterMessages.id))
    .limit(filters.limit);
  return rows.map(rowOf);
}

/** One message as the renter sees it: its HTML and text (null until the send task rendered them). */
export async function messageDetailOf(db: Tx, id: number): Promise<z.infer<typeof messageDetail>> {
  const [row] = await db
    .select({ ...columns, html: renterMessages.html, text: renterMessages.text, messageId: renterMessages.messageId, giveUpAt: renterMessages.giveUpAt })
    .from(renterMessages)
    .leftJoin(propertyOwners, eq(propertyOwners.id, renterMessages.ownerId))
    .where(eq(renterMessages.id, id));
  if (!row) throw errors.notFound(M.notFound);
  const resends = await db.select({ id: renterMessages.id }).from(renterMessages).where(eq(renterMessages.resentFromId, id)).orderBy(renterMessages.id);
  return {
    ...rowOf(row),
    html: row.html,
    text: row.text,
    message_id: row.messageId,
    give_up_at: row.giveUpAt.toISOString(),
    resends: resends.map((r) => r.id),
  };
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
