import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { logger } from "@/server/log";
import type { ConsoleUser } from "@/server/trpc/context";
import { newClient, unique } from "@/test/factories";
import { onboardingPartner } from "../../roster/roster-test-helpers";
import { providers } from "../providers.table";

/** docs/decisions.md, "Console: access management, part A": provider subscriptions and their coverage from the console (spec Delivery mechanics 6). */

const operator: ConsoleUser = { id: 1, email: "ops@example.com", role: "operator" };
const manager: ConsoleUser = { id: 2, email: "am@example.com", role: "account_manager" };

async function as(user: ConsoleUser | null) {
  return consoleRouter.createCaller({ db: await getDb(), log: logger(), requestId: "req-prov", user });
}

const auditOf = async (code: string) => (await as(operator)).audit.search({ subjectType: "provider", subjectId: code });

/** A partner with an owner holding buildings `b1` and `b2`. */
async function partnerWithBuildings() {
  const partner = await onboardingPartner();
  const address = (line: string) => ({ line_one: line, city: "Austin", state: "TX", zip: "78701" });
  const answer = await partner.post("properties", [
    { external_system_id: "b1", building_name: "Birch One", address: address("1 Birch St") },
    { external_system_id: "b2", building_name: "Birch Two", address: address("2 Birch St") },
  ]);
  expect(answer.status).toBe(200);
  return partner;
}

describe("console: provider coverage (docs/decisions.md, Console: access management, part A)", () => {
  it("creates a provider, lists its coverage, adds and removes owners and buildings; each change audited without secrets", async () => {
    const { client, owner } = await partnerWithBuildings();
    const code = unique("prov").toLowerCase();
    const caller = await as(manager);
    const created = await caller.providers.create({
      code,
      client_id: client.clientId,
      owner_slugs: [],
      buildings: [{ owner_slug: owner.slug, external_id: "b1" }],
    });
    expect(created).toMatchObject({
      code,
      client_id: client.clientId,
      owners: [],
      covers_granted_owners: false,
      buildings: [{ owner_slug: owner.slug, external_id: "b1", name: "Birch One" }],
    });

    const widened = await caller.providers.addCoverage({ code, owner_slugs: [owner.slug], buildings: [{ owner_slug: owner.slug, external_id: "b2" }] });
    expect(widened.owners).toEqual([{ owner_slug: owner.slug, name: owner.name }]);
    expect(widened.buildings.map((b) => b.external_id)).toEqual(["b1", "b2"]);
    // Adding what is covered already changes nothing and writes no audit row.
    await caller.providers.addCoverage({ code, owner_slugs: [owner.slug], buildings: [] });

    const narrowed = await caller.providers.removeCoverage({ code, building: { owner_slug: owner.slug, external_id: "b1" } });
    expect(narrowed.buildings.map((b) => b.external_id)).toEqual(["b2"]);
    const emptied = await caller.providers.removeCoverage({ code, owner_slug: owner.slug });
    expect(emptied.owners).toEqual([]);
    const last = await caller.providers.removeCoverage({ code, building: { owner_slug: owner.slug, external_id: "b2" } });
    expect(last.covers_granted_owners).toBe(true);

    expect((await caller.providers.search({ client_id: client.clientId })).map((p) => p.code)).toEqual([code]);
    const log = await auditOf(code);
    expect(log.map((r) => r.action)).toEqual([
      "providers.remove_coverage",
      "providers.remove_coverage",
      "providers.remove_coverage",
      "providers.add_coverage",
      "providers.create",
    ]);
    expect(log[3]).toMatchObject({
      before: { client_id: client.clientId, owners: [], buildings: [{ owner_slug: owner.slug, external_id: "b1" }] },
      after: {
        owners: [owner.slug],
        buildings: [
          { owner_slug: owner.slug, external_id: "b1" },
          { owner_slug: owner.slug, external_id: "b2" },
        ],
      },
    });
    const [row] = await (await getDb()).select().from(providers).where(eq(providers.code, code));
    expect(JSON.stringify(log)).not.toContain(row.signingSecretEncrypted);
    expect(JSON.stringify(log)).not.toContain("whsec_");
  });

  it("refuses unknown clients, owners, buildings and providers, a taken code and bad input, changing nothing", async () => {
    const { client, owner } = await partnerWithBuildings();
    const caller = await as(operator);
    const code = unique("p").toLowerCase();
    const none = { owner_slugs: [], buildings: [] };
    await expect(caller.providers.create({ code, client_id: "pc_nope", ...none })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No active client pc_nope",
    });
    await expect(caller.providers.create({ code, client_id: client.clientId, owner_slugs: ["ghost"], buildings: [] })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No owner ghost",
    });
    await expect(
      caller.providers.create({ code, client_id: client.clientId, owner_slugs: [], buildings: [{ owner_slug: owner.slug, external_id: "b9" }] }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: `No building b9 under owner ${owner.slug}`,
    });
    await expect(caller.providers.create({ code: "Bad Code", client_id: client.clientId, ...none })).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    const ingestion = await newClient({ gateway: "ingestion" });
    await expect(caller.providers.create({ code, client_id: ingestion.clientId, ...none })).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    expect(await caller.providers.search({ client_id: client.clientId })).toEqual([]);
    expect(await auditOf(code)).toEqual([]);

    await caller.providers.create({ code, client_id: client.clientId, ...none });
    await expect(caller.providers.create({ code, client_id: client.clientId, ...none })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(caller.providers.addCoverage({ code: "missing", owner_slugs: [owner.slug], buildings: [] })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No provider missing",
    });
    await expect(caller.providers.addCoverage({ code, owner_slugs: [], buildings: [] })).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    await expect(caller.providers.removeCoverage({ code, owner_slug: owner.slug })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "The provider does not cover it",
    });
    await expect(caller.providers.removeCoverage({ code })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      caller.providers.removeCoverage({ code, owner_slug: owner.slug, building: { owner_slug: owner.slug, external_id: "b1" } }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect((await auditOf(code)).map((r) => r.action)).toEqual(["providers.create"]);

    const anonymous = await as(null);
    await expect(anonymous.providers.search({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.providers.create({ code: "x", client_id: client.clientId, ...none })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.providers.addCoverage({ code, owner_slugs: [owner.slug], buildings: [] })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.providers.removeCoverage({ code, owner_slug: owner.slug })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const procedures = consoleRouter._def.procedures as unknown as Record<string, { _def: { meta?: { permission?: string } } }>;
    expect(["search", "create", "addCoverage", "removeCoverage"].map((name) => procedures[`providers.${name}`]._def.meta?.permission)).toEqual([
      "access.read",
      "access.manage",
      "access.manage",
      "access.manage",
    ]);
  });
});
