import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { apiClients } from "../../auth/clients.table";
import { createSource, redirectDomainsOf } from "../sources";
import { type Source, sources } from "../sources.table";
import { type sourceCreateInput, sourceFlow, type sourceUpdateInput } from "./sources.inputs";

/**
 * Sources in the console (decisions §4 `source create`, §12 Access): the partner code prospects are
 * written under, its flow, whether ingested events may omit fields, and where the flow may redirect.
 * Validation is the CLI's (`createSource`, `redirectDomainsOf`).
 */

export const sourceRow = z.object({
  code: z.string(),
  client_id: z.string(),
  client_name: z.string().nullable(),
  flow: sourceFlow,
  optional_ingest_fields: z.boolean(),
  redirect_domains: z.array(z.string()),
  created_at: z.string(),
});
type SourceRow = z.infer<typeof sourceRow>;

/** What the audit log keeps of a source (it holds no secret). */
const audited = (source: Source) => ({
  code: source.code,
  client_id: source.clientId,
  flow: source.flow,
  optional_ingest_fields: source.optionalIngestFields,
  redirect_domains: source.redirectDomains,
});

export async function listSources(db: Db, code?: string): Promise<SourceRow[]> {
  const rows = await db
    .select({ source: sources, clientName: apiClients.name })
    .from(sources)
    .leftJoin(apiClients, eq(apiClients.id, sources.clientId))
    .where(code ? eq(sources.code, code) : undefined)
    .orderBy(asc(sources.code));
  return rows.map(({ source, clientName }) => ({ ...audited(source), client_name: clientName, created_at: source.createdAt.toISOString() }));
}

async function sourceView(db: Db, code: string): Promise<SourceRow> {
  const [row] = await listSources(db, code);
  if (!row) throw errors.notFound(`No source ${code}`);
  return row;
}

export async function createSourceByStaff(db: Db, actor: AuditActor, input: z.infer<typeof sourceCreateInput>): Promise<SourceRow> {
  await db.transaction(async (tx) => {
    const created = await createSource(tx, {
      code: input.code.trim(),
      clientId: input.client_id.trim(),
      flow: input.flow,
      optionalIngestFields: input.optional_ingest_fields,
      redirectDomains: input.redirect_domains,
    });
    await recordAudit(tx, actor, { action: "source.created", subject: { type: "source", id: created.source.code }, after: created.source });
  });
  return sourceView(db, input.code.trim());
}

/** Changes the given settings only; the code and client stay (prospects are keyed by them). */
export async function updateSourceByStaff(db: Db, actor: AuditActor, input: z.infer<typeof sourceUpdateInput>): Promise<SourceRow> {
  const domains = input.redirect_domains === undefined ? undefined : redirectDomainsOf(input.redirect_domains);
  await db.transaction(async (tx) => {
    const [before] = await tx.select().from(sources).where(eq(sources.code, input.code)).for("update");
    if (!before) throw errors.notFound(`No source ${input.code}`);
    const changes: Partial<typeof sources.$inferInsert> = {};
    if (input.flow !== undefined && input.flow !== before.flow) changes.flow = input.flow;
    if (input.optional_ingest_fields !== undefined && input.optional_ingest_fields !== before.optionalIngestFields) {
      changes.optionalIngestFields = input.optional_ingest_fields;
    }
    if (domains !== undefined && domains.join(" ") !== before.redirectDomains.join(" ")) changes.redirectDomains = domains;
    if (Object.keys(changes).length === 0) return;
    const [after] = await tx.update(sources).set(changes).where(eq(sources.id, before.id)).returning();
    await recordAudit(tx, actor, { action: "source.updated", subject: { type: "source", id: before.code }, before: audited(before), after: audited(after) });
  });
  return sourceView(db, input.code);
}
