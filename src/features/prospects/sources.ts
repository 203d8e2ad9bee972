import { eq } from "drizzle-orm";
import { getConfig } from "../../server/config";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { findActiveClient } from "../auth/clients";
import { redirectDomainOf } from "./redirect-domains";
import { sources } from "./sources.table";

/** decisions §4 `source create`: a partner code prospects are written under. */
export async function createSource(
  tx: Tx,
  input: { code: string; clientId: string; flow?: "embedded" | "expedited"; optionalIngestFields?: boolean; redirectDomains?: string[] },
) {
  if (!/^[a-z0-9][a-z0-9_-]{0,63}$/.test(input.code)) throw errors.invalid("Source code must be lowercase letters, digits, '_' or '-'", "code");
  if (!(await findActiveClient(tx, input.clientId))) throw errors.notFound(`No active client ${input.clientId}`);
  const domains = redirectDomainsOf(input.redirectDomains ?? []);
  const [taken] = await tx.select({ id: sources.id }).from(sources).where(eq(sources.code, input.code));
  if (taken) throw errors.conflict(`Source ${input.code} already exists`);
  const [source] = await tx
    .insert(sources)
    .values({
      code: input.code,
      clientId: input.clientId,
      flow: input.flow ?? "embedded",
      optionalIngestFields: input.optionalIngestFields ?? false,
      redirectDomains: domains,
    })
    .returning();
  return {
    source: {
      code: source.code,
      client_id: source.clientId,
      flow: source.flow,
      optional_ingest_fields: source.optionalIngestFields,
      redirect_domains: source.redirectDomains,
    },
  };
}

/**
 * Redirect domains as stored (decisions §4 `--redirect-domain`): blanks dropped, each a public domain
 * name (staging also `localhost`), duplicates once, in the order given. The first bad one is refused.
 */
export function redirectDomainsOf(values: readonly string[]): string[] {
  const domains: string[] = [];
  for (const typed of values.filter((value) => value.trim() !== "")) {
    const domain = redirectDomainOf(typed, getConfig().appEnv);
    if (!domain) throw errors.invalid(`Not a domain name: ${typed.trim().toLowerCase()}`, "redirect_domain");
    if (!domains.includes(domain)) domains.push(domain);
  }
  return domains;
}
