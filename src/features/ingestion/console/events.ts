import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { type IngestionEvent, ingestionEvents } from "../ingestion-events.table";

export const ingestionEventRow = z.object({
  id: z.number().int(),
  client_id: z.string(),
  status: z.enum(["pending", "applied", "skipped", "rejected"]),
  type: z.string().nullable(),
  owner_slug: z.string().nullable(),
  source_prospect_id: z.string().nullable(),
  reasons: z.record(z.string(), z.array(z.string())).nullable(),
  received_at: z.string(),
});

const text = (body: unknown, key: string) => {
  const value = (body as Record<string, unknown> | null)?.[key];
  return typeof value === "string" ? value : null;
};

/** Ingested events for operators, newest first; rejected ones with their reasons (decisions §8). */
export async function recentIngestionEvents(tx: Tx, status?: IngestionEvent["status"]) {
  const rows = await tx
    .select()
    .from(ingestionEvents)
    .where(status ? eq(ingestionEvents.status, status) : undefined)
    .orderBy(desc(ingestionEvents.id))
    .limit(200);
  return rows.map((row) => ({
    id: row.id,
    client_id: row.clientId,
    status: row.status,
    type: text(row.body, "type"),
    owner_slug: text(row.body, "owner_slug"),
    source_prospect_id: text(row.body, "source_prospect_id"),
    reasons: row.reasons,
    received_at: row.receivedAt.toISOString(),
  }));
}
