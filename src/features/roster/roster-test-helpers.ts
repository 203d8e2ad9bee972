import { getDb } from "../../server/db/client";
import { newClient, newOwner, type TestClient } from "../../test/factories";
import { call } from "../../test/http";

export type CollectionAnswer = {
  status_code: number;
  results: Array<{ external_system_id: string | null; action: string; errors?: Record<string, string[]>; [key: string]: unknown }>;
  meta: { created: number; updated: number; failed: number };
};

/** A partner with a fresh owner, posting to the owner's onboarding collections. */
export async function onboardingPartner(options: { guarantorCapable?: boolean } = {}) {
  const client: TestClient = await newClient();
  const owner = await newOwner(client);
  if (options.guarantorCapable) {
    const { propertyOwners } = await import("../owners/tables");
    const { eq } = await import("drizzle-orm");
    await (await getDb()).update(propertyOwners).set({ guarantorCoverageCapable: true }).where(eq(propertyOwners.id, owner.id));
  }
  const token = await client.token();
  const post = (collection: "bank_accounts" | "properties" | "units", body: unknown) =>
    call<CollectionAnswer>("POST", `/api/partners/${owner.slug}/${collection}`, { token, body });
  return { client, owner, token, post };
}

export const address = (lineOne: string, zip = "78701") => ({ line_one: lineOne, city: "Austin", state: "TX", zip });
