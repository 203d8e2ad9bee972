import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { logger } from "@/server/log";
import type { ConsoleUser } from "@/server/trpc/context";
import { newClient, newOwner, unique } from "@/test/factories";
import { call } from "@/test/http";
import { serviceBuilding } from "../../roster/roster-test-helpers";
import { createManagedOwner } from "../service";

/** docs/decisions.md, "Console: access management, part A": building grants of managed owners from the console (decisions §4 `owner grant-building`). */

const operator: ConsoleUser = { id: 1, email: "ops@example.com", role: "operator" };
const manager: ConsoleUser = { id: 2, email: "am@example.com", role: "account_manager" };

async function as(user: ConsoleUser | null) {
  return consoleRouter.createCaller({ db: await getDb(), log: logger(), requestId: "req-bg", user });
}

async function managedWithBuilding() {
  const owner = await createManagedOwner(await getDb(), { name: unique("Managed"), externalOrgId: unique("org") });
  const pmsPropertyId = unique("pp");
  const building = await serviceBuilding(owner.id, { name: "Cedar Court", line: "1 Cedar Ct", pmsType: "pms_one", pmsPropertyId });
  const client = await newClient();
  return { owner, building, client, pmsPropertyId };
}

describe("console: building grants (docs/decisions.md, Console: access management, part A)", () => {
  it("adds a grant (and the owner grant it needs), lists it with its building, removes it; each change audited", async () => {
    const { owner, building, client, pmsPropertyId } = await managedWithBuilding();
    const input = { owner_slug: owner.slug, client_id: client.clientId, pms_type: "pms_one" as const, pms_property_id: pmsPropertyId };
    const added = await (await as(manager)).buildingGrants.add(input);
    expect(added).toMatchObject({ changed: true, grant: { ...input, owner_name: owner.name, building: { id: building.id, name: "Cedar Court" } } });
    // The partner now passes the owner's grant check.
    const token = await client.token();
    expect((await call("GET", `/api/partners/${owner.slug}/move_outs/none`, { token })).status).toBe(404);
    // The same grant again: idempotent, no second audit row.
    expect((await (await as(manager)).buildingGrants.add(input)).changed).toBe(false);
    const listed = await (await as(manager)).buildingGrants.search({ owner_slug: owner.slug });
    expect(listed.map((g) => g.id)).toEqual([added.grant.id]);
    expect(await (await as(manager)).buildingGrants.search({ client_id: client.clientId })).toHaveLength(1);
    const audit = async () => (await as(operator)).audit.search({ subjectType: "building_grant", subjectId: String(added.grant.id) });
    expect(await audit()).toEqual([
      expect.objectContaining({
        action: "building_grants.add",
        actor: "am@example.com",
        owner_id: owner.id,
        before: null,
        after: { owner_slug: owner.slug, client_id: client.clientId, pms_type: "pms_one", pms_property_id: pmsPropertyId },
      }),
    ]);

    const removed = await (await as(operator)).buildingGrants.remove({ id: added.grant.id });
    expect(removed.changed).toBe(true);
    expect(await (await as(manager)).buildingGrants.search({ owner_slug: owner.slug })).toEqual([]);
    expect((await audit()).map((r) => [r.action, r.after])).toEqual([
      ["building_grants.remove", null],
      ["building_grants.add", expect.any(Object)],
    ]);
    await expect((await as(operator)).buildingGrants.remove({ id: added.grant.id })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "Building grant not found",
    });
  });

  it("revoking the client's owner grant removes its building grants under that owner", async () => {
    const { owner, client, pmsPropertyId } = await managedWithBuilding();
    await (await as(manager)).buildingGrants.add({ owner_slug: owner.slug, client_id: client.clientId, pms_type: "pms_one", pms_property_id: pmsPropertyId });
    await (await as(manager)).accessClients.revokeOwner({ client_id: client.clientId, owner_slug: owner.slug });
    expect(await (await as(manager)).buildingGrants.search({ owner_slug: owner.slug })).toEqual([]);
    const [entry] = await (await as(manager)).audit.search({ subjectType: "client", subjectId: client.clientId });
    expect(entry.before).toEqual({ owner_slug: owner.slug, granted: true, building_grants: [{ pms_type: "pms_one", pms_property_id: pmsPropertyId }] });
  });

  it("refuses unknown owners and clients, unmanaged owners and bad input, changing nothing", async () => {
    const { owner, client } = await managedWithBuilding();
    const caller = await as(operator);
    const base = { owner_slug: owner.slug, client_id: client.clientId, pms_type: "pms_one" as const, pms_property_id: "x1" };
    await expect(caller.buildingGrants.add({ ...base, owner_slug: "nobody" })).rejects.toMatchObject({ code: "NOT_FOUND", message: "No owner nobody" });
    await expect(caller.buildingGrants.add({ ...base, client_id: "pc_nope" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No active client pc_nope",
    });
    const unmanaged = await newOwner(client);
    await expect(caller.buildingGrants.add({ ...base, owner_slug: unmanaged.slug })).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    await expect(caller.buildingGrants.add({ ...base, pms_type: "pms_nine" as never })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.buildingGrants.add({ ...base, pms_property_id: "  " })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.buildingGrants.remove({ id: 0 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await caller.buildingGrants.search({ owner_slug: owner.slug })).toEqual([]);
    expect(await caller.audit.search({ ownerId: owner.id })).toEqual([]);
    const anonymous = await as(null);
    await expect(anonymous.buildingGrants.search({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.buildingGrants.add(base)).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.buildingGrants.remove({ id: 1 })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const procedures = consoleRouter._def.procedures as unknown as Record<string, { _def: { meta?: { permission?: string } } }>;
    expect(["search", "add", "remove"].map((name) => procedures[`buildingGrants.${name}`]._def.meta?.permission)).toEqual([
      "access.read",
      "access.manage",
      "access.manage",
    ]);
  });
});
