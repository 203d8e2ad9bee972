import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { staff } from "@/test/console";
import { admin } from "../../../cli/admin-test-helpers";
import { getDb } from "../../../server/db/client";
import { decryptSecret } from "../../../server/secrets";
import { call } from "../../../test/http";
import { auditLog } from "../../audit/audit-log.table";
import { prospects } from "../../prospects/prospects.table";
import { bankAccounts, properties } from "../../roster/roster.table";
import { forgetSigningSecrets, signingSecretsFor } from "../../webhooks/secrets";
import { webhookDeliveries, webhookEndpoints } from "../../webhooks/webhooks.table";
import { propertyOwners } from "../owners.table";
import { mergeOwners } from "./merge";
import { duplicatePair, partnerCalls } from "./merge-test-helpers";
import { planMerge } from "./plan";

async function ownerRow(id: number) {
  const [row] = await (await getDb()).select().from(propertyOwners).where(eq(propertyOwners.id, id));
  return row;
}

describe("owner merge: preview (decisions §12 Owners, §4 owner merge --dry-run)", () => {
  it("lists everything that moves and every conflict with its resolution, and writes nothing", async () => {
    const { duplicate, survivor, p } = await duplicatePair();
    const from = duplicate.owner.slug;
    const into = survivor.owner.slug;
    const plan = await (await staff("account_manager")).ownerMerge.preview({ from, into });
    expect(plan).toEqual({
      from,
      into,
      moves: { buildings: 2, units: 1, bank_accounts: 1, prospects: 2, policies: 0, move_outs: 0, endpoints: 1, deliveries: 2, grants: 1, sources: 1 },
      conflicts: [
        expect.objectContaining({ kind: "building_external_id", resolution: expect.stringContaining(`"b1~${from}"`) }),
        expect.objectContaining({ kind: "bank_account_external_id", resolution: expect.stringContaining(`"ba-1~${from}"`) }),
        expect.objectContaining({ kind: "default_bank_account" }),
        expect.objectContaining({
          kind: "source_prospect_id",
          detail: expect.stringContaining('"shared"'),
          resolution: expect.stringContaining(`"shared~${from}"`),
        }),
        { kind: "duplicate_grant", detail: `Client ${p.clientId} is granted both owners`, resolution: "Kept once on the survivor" },
      ],
    });
    // A dry run: the CLI prints the same plan, and nothing moved.
    const cli = await admin("owner", "merge", "--from", from, "--into", into, "--dry-run");
    expect(cli.out).toEqual({ plan });
    expect((await ownerRow(duplicate.owner.id)).mergedIntoId).toBeNull();
    const left = await (await getDb()).select().from(properties).where(eq(properties.ownerId, duplicate.owner.id));
    expect(left).toHaveLength(2);
  });

  it("refuses an unknown owner, a merge into itself and a merge of an owner already merged", async () => {
    const { duplicate, survivor } = await duplicatePair();
    const db = await getDb();
    await expect(planMerge(db, "no-such-owner", survivor.owner.slug)).rejects.toMatchObject({ kind: "not_found" });
    await expect(planMerge(db, survivor.owner.slug, survivor.owner.slug)).rejects.toMatchObject({ kind: "invalid" });
    await mergeOwners(db, { cli: "test" }, { from: duplicate.owner.slug, into: survivor.owner.slug });
    await expect(planMerge(db, duplicate.owner.slug, survivor.owner.slug)).rejects.toMatchObject({ kind: "conflict" });
  });
});

describe("owner merge (decisions §12 Owners)", () => {
  it("moves everything in one transaction, deletes nothing, resolves the conflicts, records and audits the merge", async () => {
    const { duplicate, survivor } = await duplicatePair();
    const db = await getDb();
    const from = duplicate.owner.slug;
    const into = survivor.owner.slug;
    const before = await db.select().from(prospects).where(eq(prospects.ownerId, duplicate.owner.id));
    const result = await (await staff("operator")).ownerMerge.merge({ from, into, confirm: from });
    expect(result).toMatchObject({ from, into, moved: { buildings: 2, prospects: 2, endpoints: 1, bank_accounts: 1 } });

    // Nothing left on the duplicate, which still exists, pointing at the survivor.
    for (const table of [properties, prospects, bankAccounts, webhookEndpoints, webhookDeliveries]) {
      expect(await db.select().from(table).where(eq(table.ownerId, duplicate.owner.id))).toEqual([]);
    }
    expect((await ownerRow(duplicate.owner.id)).mergedIntoId).toBe(survivor.owner.id);
    // The same records (same ids), now the survivor's; colliding keys renamed as the plan said.
    const moved = await db.select().from(prospects).where(eq(prospects.ownerId, survivor.owner.id));
    expect(moved.map((row) => row.id).sort()).toEqual(expect.arrayContaining(before.map((row) => row.id)));
    expect(moved.map((row) => row.sourceProspectId).sort()).toEqual(["p-only", "shared", `shared~${from}`]);
    const buildings = await db.select().from(properties).where(eq(properties.ownerId, survivor.owner.id));
    expect(buildings.map((row) => row.externalSystemId).sort()).toEqual(["b-dup", "b-surv", "b1", `b1~${from}`].sort());
    const accounts = await db.select().from(bankAccounts).where(eq(bankAccounts.ownerId, survivor.owner.id));
    expect(accounts.filter((row) => row.isDefault).map((row) => row.externalSystemId)).toEqual(["ba-1"]);
    // The duplicate's buildings keep paying to its (former default) account.
    const dupAccount = accounts.find((row) => row.externalSystemId === `ba-1~${from}`);
    expect(buildings.find((row) => row.externalSystemId === "b-dup")?.bankAccountId).toBe(dupAccount?.id);

    // The record, shown in owner list and in the console.
    const list = await admin("owner", "list");
    expect((list.out.owners as Array<Record<string, unknown>>).find((o) => o.owner_slug === from)).toEqual({
      owner_slug: from,
      external_org_id: duplicate.owner.externalOrgId,
      name: duplicate.owner.name,
      managed: false,
      merged_into: into,
    });
    expect((list.out.owners as Array<Record<string, unknown>>).find((o) => o.owner_slug === into)).not.toHaveProperty("merged_into");
    const history = await (await staff("account_manager")).ownerMerge.history();
    expect(history.find((row) => row.id === result.id)).toMatchObject({ from, into, actor: "operator@example.com", moved: result.moved });
    const [audit] = await (await getDb())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "owners.merge"), eq(auditLog.subjectId, from)));
    expect(audit).toMatchObject({ actorLabel: "operator@example.com", actorRole: "operator", ownerId: survivor.owner.id, subjectType: "owner" });
    expect(audit.after).toMatchObject({ id: result.id, from, into });
    expect(JSON.stringify(audit)).not.toContain("whsec_");
  });

  it("the CLI merges and prints {merge: {id, from, into, moved, merged_at}}, audited as the CLI user", async () => {
    const { duplicate, survivor } = await duplicatePair();
    const answer = await admin("owner", "merge", "--from", duplicate.owner.slug, "--into", survivor.owner.slug);
    expect(answer.code).toBe(0);
    expect(answer.out).toEqual({
      merge: {
        id: expect.any(Number),
        from: duplicate.owner.slug,
        into: survivor.owner.slug,
        moved: expect.objectContaining({ buildings: 2 }),
        merged_at: expect.any(String),
      },
    });
    const [audit] = await (await getDb())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "owners.merge"), eq(auditLog.subjectId, duplicate.owner.slug)));
    expect(audit.actorLabel).toMatch(/^cli:/);
  });

  it("the duplicate's slug answers for the survivor through the Partner API, for every client that had it", async () => {
    const { duplicate, survivor, q } = await duplicatePair();
    const db = await getDb();
    await mergeOwners(db, { cli: "test" }, { from: duplicate.owner.slug, into: survivor.owner.slug });
    // P under the old slug: its moved prospect, and a new write lands on the survivor.
    const old = partnerCalls(duplicate.token, duplicate.owner.slug, duplicate.source);
    expect((await old.getProspect("p-only")).status).toBe(200);
    const created = await old.prospect("after-merge", "b-dup", "u1");
    expect(created.status).toBe(200);
    const [row] = await db
      .select()
      .from(prospects)
      .where(and(eq(prospects.sourceProspectId, "after-merge"), eq(prospects.source, duplicate.source)));
    expect(row.ownerId).toBe(survivor.owner.id);
    // And under the survivor's slug, P reaches what moved.
    const current = partnerCalls(duplicate.token, survivor.owner.slug, duplicate.source);
    expect((await current.getProspect("p-only")).status).toBe(200);
    expect((await current.getProspect(`shared~${duplicate.owner.slug}`)).status).toBe(200);
    // The old slug is the survivor's for its own partner Q too (never granted the duplicate itself).
    const qToken = await q.token();
    expect((await call("GET", `/api/partners/${duplicate.owner.slug}/webhooks/endpoints`, { token: qToken })).status).toBe(200);
    // The duplicate's endpoint is listed for P under both slugs.
    const listed = await call<{ endpoints: Array<{ id: string }> }>("GET", `/api/partners/${duplicate.owner.slug}/webhooks/endpoints`, {
      token: duplicate.token,
    });
    expect(listed.body.endpoints.map((e) => e.id)).toContain(duplicate.endpointId);
  });

  it("an owner upsert with the duplicate's external_org_id answers 409, like a managed owner", async () => {
    const { duplicate, survivor } = await duplicatePair();
    await mergeOwners(await getDb(), { cli: "test" }, { from: duplicate.owner.slug, into: survivor.owner.slug });
    const answer = await call("POST", "/api/partners/property_owners", {
      token: duplicate.token,
      body: { external_org_id: duplicate.owner.externalOrgId, name: "Again" },
    });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ status_code: 409, error: expect.any(String) });
  });

  it("signs with the duplicate's secret beside the survivor's for 24 hours, then no more", async () => {
    const { duplicate, survivor } = await duplicatePair();
    const db = await getDb();
    const mergedAt = new Date("2026-11-20T12:00:00Z");
    const dupSecret = decryptSecret((await ownerRow(duplicate.owner.id)).signingSecretEncrypted);
    const survSecret = decryptSecret((await ownerRow(survivor.owner.id)).signingSecretEncrypted);
    await mergeOwners(db, { cli: "test" }, { from: duplicate.owner.slug, into: survivor.owner.slug }, mergedAt);
    const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, duplicate.endpointId));
    expect(endpoint.ownerId).toBe(survivor.owner.id);
    const at = (ms: number) => {
      forgetSigningSecrets([survivor.owner.id]);
      return signingSecretsFor(db, endpoint, new Date(mergedAt.getTime() + ms));
    };
    expect(await at(0)).toEqual([survSecret, dupSecret]);
    expect(await at(24 * 3600_000 - 1000)).toEqual([survSecret, dupSecret]);
    expect(await at(24 * 3600_000 + 1000)).toEqual([survSecret]);
  });
});

describe("owner merge permissions (decisions §12)", () => {
  it("an account manager may preview but not merge; an anonymous caller gets nothing", async () => {
    const { duplicate, survivor } = await duplicatePair();
    const pair = { from: duplicate.owner.slug, into: survivor.owner.slug };
    await expect((await staff("account_manager")).ownerMerge.merge({ ...pair, confirm: pair.from })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await staff(null)).ownerMerge.merge({ ...pair, confirm: pair.from })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect((await staff(null)).ownerMerge.preview(pair)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect((await staff(null)).ownerMerge.history()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await ownerRow(duplicate.owner.id)).mergedIntoId).toBeNull();
    // A wrong typed confirmation merges nothing either.
    await expect((await staff("operator")).ownerMerge.merge({ ...pair, confirm: "yes" })).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    expect((await ownerRow(duplicate.owner.id)).mergedIntoId).toBeNull();
  });
});
