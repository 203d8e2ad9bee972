import { and, desc, eq, inArray, like, or, sql } from "drizzle-orm";
import type { Db } from "../../server/db/client";
import { renterMessages } from "../messages/renter-messages.table";
import { findOwnerBySlug } from "../owners/service";
import { prospects } from "../prospects/prospects.table";
import { DEMO_PROSPECT_PREFIX } from "./scenarios";

export type DemoRenterMessage = {
  id: number;
  kind: string;
  to: string;
  subject: string;
  status: string;
  created_at: string;
  last_answer: string | null;
  /** Null until the send task rendered it (a moment after the change). */
  html: string | null;
  text: string | null;
};

/**
 * The demo renters' messages as they come (decisions §19: "the demo page shows the demo renter's
 * messages"): those about the demo owner's records, and those to a demo renter's address that name
 * no owner (the account's sign-in link), newest first. Scoped like the deliveries: nothing of another owner.
 */
export async function listDemoRenterMessages(db: Db, ownerSlug: string, source: string, limit = 20): Promise<DemoRenterMessage[]> {
  const owner = await findOwnerBySlug(db, ownerSlug);
  if (!owner) return [];
  const demoEmails = db
    .select({ email: sql`lower(${prospects.email})` })
    .from(prospects)
    .where(and(eq(prospects.ownerId, owner.id), eq(prospects.source, source), like(prospects.sourceProspectId, `${DEMO_PROSPECT_PREFIX}%`)));
  const rows = await db
    .select()
    .from(renterMessages)
    .where(or(eq(renterMessages.ownerId, owner.id), and(sql`${renterMessages.ownerId} is null`, inArray(sql`lower(${renterMessages.toAddress})`, demoEmails))))
    .orderBy(desc(renterMessages.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: row.subject,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    last_answer: row.lastAnswer,
    html: row.html,
    text: row.text,
  }));
}
