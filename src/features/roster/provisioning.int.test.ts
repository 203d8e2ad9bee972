import { describe, expect, it } from "vitest";
import { newClient, unique } from "../../test/factories";
import { call } from "../../test/http";
import { OWNER_MESSAGES } from "../owners/messages";
import type { CollectionAnswer } from "./roster-test-helpers";
import { address } from "./roster-test-helpers";

describe("provisioning order for a partner-created owner (spec Endpoints)", () => {
  it("creates the owner, registers accounts, properties and units, then activates it", async () => {
    const token = await (await newClient()).token();
    const externalOrgId = unique("org");
    // 1. Create the owner: slug returned, purchase flow off.
    const created = await call<{ property_owner: { owner_slug: string; purchase_flow_enabled: boolean } }>("POST", "/api/partners/property_owners", {
      token,
      body: { external_org_id: externalOrgId, name: "Walkthrough Homes" },
    });
    expect(created.status).toBe(201);
    const slug = created.body.property_owner.owner_slug;
    expect(created.body.property_owner.purchase_flow_enabled).toBe(false);
    const post = (collection: string, body: unknown) => call<CollectionAnswer>("POST", `/api/partners/${slug}/${collection}`, { token, body });

    // Activation before the roster is loaded is refused.
    const early = await call("POST", "/api/partners/property_owners", { token, body: { external_org_id: externalOrgId, purchase_flow_enabled: true } });
    expect(early.status).toBe(422);
    expect(early.body).toEqual({ status_code: 422, error: OWNER_MESSAGES.invalid, errors: { purchase_flow_enabled: [OWNER_MESSAGES.rosterNotLoaded] } });

    // 2. Bank accounts: the first is the default.
    const accounts = await post("bank_accounts", [
      { external_system_id: "op", display_name: "Operating", routing_number: "021000021", account_number: "44443333" },
    ]);
    expect(accounts.body.results[0]).toMatchObject({ action: "created", default: true });
    // 3. Properties, then units.
    const buildings = await post("properties", [{ external_system_id: "tower", building_name: "Tower", address: address("500 Congress Ave Apt 1") }]);
    expect(buildings.body.meta.created).toBe(1);
    const units = await post("units", [
      { external_system_id: "t-1", property_external_id: "tower", address: address("500 Congress Ave Apt 1") },
      { external_system_id: "t-2", property_external_id: "tower", address: address("500 Congress Avenue Apt 2") },
    ]);
    expect(units.body.meta).toEqual({ created: 2, updated: 0, failed: 0 });
    // 4. Activate.
    const active = await call<{ property_owner: { purchase_flow_enabled: boolean } }>("POST", "/api/partners/property_owners", {
      token,
      body: { external_org_id: externalOrgId, purchase_flow_enabled: true },
    });
    expect(active.status).toBe(200);
    expect(active.body.property_owner.purchase_flow_enabled).toBe(true);
  });
});
