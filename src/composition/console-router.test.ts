import { describe, expect, it } from "vitest";
import { consoleRouter } from "./console-router";

/**
 * The console's pages call `trpc.<key>.<procedure>`: composing each feature's console router here
 * (docs/decisions.md "Structure: routers, file names, jobs, feature entries") must keep every path.
 */
const SERVED = [
  "accessClients.create",
  "accessClients.detail",
  "accessClients.grantOwner",
  "accessClients.ownerOptions",
  "accessClients.revokeOwner",
  "accessClients.rotateSecret",
  "accessClients.search",
  "accessClients.setDisabled",
  "accessClients.update",
  "audit.search",
  "billing.delinquencies",
  "billing.policy",
  "billing.settle",
  "buildingGrants.add",
  "buildingGrants.remove",
  "buildingGrants.search",
  "buildings.correctAddress",
  "buildings.detail",
  "buildings.search",
  "buildings.setActive",
  "frameOrigins.add",
  "frameOrigins.list",
  "frameOrigins.remove",
  "ingestion.events",
  "me",
  "overview.deliveries",
  "ownerMerge.history",
  "ownerMerge.merge",
  "ownerMerge.owners",
  "ownerMerge.preview",
  "owners.detail",
  "owners.list",
  "owners.revealSecret",
  "owners.rotateSecret",
  "owners.updateSettings",
  "policies.cancel",
  "policies.detail",
  "policies.revise",
  "policies.search",
  "prospects.detail",
  "prospects.search",
  "providers.addCoverage",
  "providers.create",
  "providers.removeCoverage",
  "providers.search",
  "sources.create",
  "sources.list",
  "sources.update",
  "users.create",
  "users.list",
  "users.resetPassword",
  "users.setDisabled",
  "users.setRole",
  "webhooks.bulkRetries.count",
  "webhooks.bulkRetries.progress",
  "webhooks.bulkRetries.recent",
  "webhooks.bulkRetries.start",
  "webhooks.deliveries.detail",
  "webhooks.deliveries.retry",
  "webhooks.deliveries.search",
  "webhooks.endpoints.detail",
  "webhooks.endpoints.setHeaders",
  "webhooks.endpoints.setStatus",
];

describe("the console router", () => {
  it("serves exactly the console's procedures, under the keys its pages call", () => {
    expect(Object.keys(consoleRouter._def.procedures).sort()).toEqual(SERVED);
  });
});
