import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { decryptSecret } from "../../server/secrets";
import { newClient, unique } from "../../test/factories";
import { call } from "../../test/http";
import { isOwnerGranted } from "../auth/clients";
import { propertyOwners } from "./owners.table";
import { createManagedOwner, RESERVED_OWNER_SLUGS } from "./service";

const PATH = "/api/partners/property_owners";

async function upsert(token: string, body: unknown) {
  return call<{ status_code: number; property_owner: Record<string, unknown>; errors?: Record<string, string[]>; error?: string }>("POST", PATH, {
    token,
    body,
  });
}

async function stored(slug: string) {
  const [row] = await (await getDb()).select().from(propertyOwners).where(eq(propertyOwners.slug, slug));
  return row;
}

describe("owner creation (spec Owner creation, decisions §7)", () => {
  it("creates with HTTP 201, purchase_flow_enabled false and an owner_slug, and grants the creator", async () => {
    const client = await newClient();
    const token = await client.token();
    const externalOrgId = unique("org");
    const answer = await upsert(token, {
      external_org_id: externalOrgId,
      name: "Maple Street Holdings",
      purchase_flow_enabled: true,
      max_coverage_amount_cents: 250000,
      embedded_frame_ancestors: ["https://portal.example.com", "https://staging.example.com:8443"],
      guarantor_coverage_capable: true,
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      status_code: 201,
      property_owner: {
        external_org_id: externalOrgId,
        owner_slug: expect.stringMatching(/^maple-street-holdings/),
        name: "Maple Street Holdings",
        purchase_flow_enabled: false,
        max_coverage_amount_cents: 250000,
        embedded_frame_ancestors: ["https://portal.example.com", "https://staging.example.com:8443"],
        guarantor_coverage_capable: true,
      },
    });
    const row = await stored(String(answer.body.property_owner.owner_slug));
    expect(await isOwnerGranted(await getDb(), client.clientId, row.id)).toBe(true);
    expect(decryptSecret(row.signingSecretEncrypted)).toMatch(/^whsec_/);
    expect(JSON.stringify(answer.body)).not.toContain("whsec_");
  });

  it("never gives an owner a slug a console page takes: an owner named Merge gets a suffixed slug", async () => {
    const token = await (await newClient()).token();
    const answer = await upsert(token, { external_org_id: unique("org"), name: "Merge" });
    expect(answer.status).toBe(201);
    const slug = String(answer.body.property_owner.owner_slug);
    expect(slug).toMatch(/^merge-[a-z0-9]+$/);
    for (const reserved of RESERVED_OWNER_SLUGS) expect(await stored(reserved)).toBeUndefined();
  });

  it("updates on re-post with HTTP 200, writing only present fields; null clears; arrays replace", async () => {
    const token = await (await newClient()).token();
    const externalOrgId = unique("org");
    const created = await upsert(token, {
      external_org_id: externalOrgId,
      name: "Oak Realty",
      max_coverage_amount_cents: 100000,
      embedded_frame_ancestors: ["https://a.example.com", "https://b.example.com"],
    });
    const slug = created.body.property_owner.owner_slug;

    const renamed = await upsert(token, { external_org_id: externalOrgId, name: "Oak Realty Group" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.status_code).toBe(200);
    expect(renamed.body.property_owner).toMatchObject({
      owner_slug: slug,
      name: "Oak Realty Group",
      max_coverage_amount_cents: 100000,
      embedded_frame_ancestors: ["https://a.example.com", "https://b.example.com"],
    });

    const replaced = await upsert(token, {
      external_org_id: externalOrgId,
      embedded_frame_ancestors: ["https://c.example.com/"],
      max_coverage_amount_cents: null,
    });
    expect(replaced.body.property_owner).toMatchObject({
      name: "Oak Realty Group",
      embedded_frame_ancestors: ["https://c.example.com"],
      max_coverage_amount_cents: null,
    });

    const cleared = await upsert(token, { external_org_id: externalOrgId, guarantor_coverage_capable: null, embedded_frame_ancestors: null });
    expect(cleared.body.property_owner).toMatchObject({ guarantor_coverage_capable: false, embedded_frame_ancestors: [] });
  });

  it("answers 409 for an external_org_id of an owner the service manages directly, and changes nothing", async () => {
    const token = await (await newClient()).token();
    const externalOrgId = unique("managed");
    const managed = await createManagedOwner(await getDb(), { name: "Direct Co", externalOrgId });
    const answer = await upsert(token, { external_org_id: externalOrgId, name: "Hijack", max_coverage_amount_cents: 1 });
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual({ status_code: 409, error: "external_org_id belongs to a property owner managed directly by the service" });
    expect((await stored(managed.slug)).name).toBe("Direct Co");
  });

  it("answers 409 when the external_org_id belongs to another partner's owner", async () => {
    const first = await (await newClient()).token();
    const second = await (await newClient()).token();
    const externalOrgId = unique("org");
    expect((await upsert(first, { external_org_id: externalOrgId, name: "First" })).status).toBe(201);
    const answer = await upsert(second, { external_org_id: externalOrgId, name: "Second" });
    expect(answer.status).toBe(409);
    expect(answer.body.error).toBe("external_org_id belongs to a property owner of another partner");
  });

  it("answers 422 with field-level errors and writes nothing", async () => {
    const token = await (await newClient()).token();
    const cases: Array<[unknown, Record<string, string[]>]> = [
      [{ name: "No Id" }, { external_org_id: ["is required"] }],
      [{ external_org_id: unique("org") }, { name: ["is required"] }],
      [
        { external_org_id: unique("org"), name: "X", embedded_frame_ancestors: ["http://insecure.example.com"] },
        { "embedded_frame_ancestors.0": [expect.stringContaining("HTTPS origin")] },
      ],
      [
        { external_org_id: unique("org"), name: "X", embedded_frame_ancestors: ["https://example.com/path"] },
        { "embedded_frame_ancestors.0": [expect.stringContaining("HTTPS origin")] },
      ],
      [{ external_org_id: unique("org"), name: "X", max_coverage_amount_cents: 12.5 }, { max_coverage_amount_cents: [expect.any(String)] }],
      [{ external_org_id: unique("org"), name: "X", purchase_flow_enabled: "yes" }, { purchase_flow_enabled: [expect.any(String)] }],
      [{ external_org_id: unique("org"), name: "X", colour: "blue" }, { base: [expect.stringContaining("colour")] }],
    ];
    for (const [body, fieldErrors] of cases) {
      const answer = await upsert(token, body);
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ status_code: 422, error: "Property owner is invalid", errors: fieldErrors });
    }
    const rows = await (await getDb()).select().from(propertyOwners).where(eq(propertyOwners.name, "X"));
    expect(rows).toEqual([]);
  });

  it("leaves a stored owner unchanged when an update is invalid", async () => {
    const token = await (await newClient()).token();
    const externalOrgId = unique("org");
    const created = await upsert(token, { external_org_id: externalOrgId, name: "Stable", max_coverage_amount_cents: 5000 });
    const bad = await upsert(token, { external_org_id: externalOrgId, name: "Changed", max_coverage_amount_cents: -1 });
    expect(bad.status).toBe(422);
    expect((await stored(String(created.body.property_owner.owner_slug))).name).toBe("Stable");
  });

  it("requires the owners:write scope", async () => {
    const client = await newClient({ scopes: ["prospects:read"] });
    const answer = await upsert(await client.token(), { external_org_id: unique("org"), name: "Nope" });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ message: "Forbidden" });
  });

  it("creates exactly one owner when the same new owner is posted concurrently", async () => {
    const token = await (await newClient()).token();
    const externalOrgId = unique("org");
    const answers = await Promise.all(Array.from({ length: 10 }, () => upsert(token, { external_org_id: externalOrgId, name: "Racy Realty" })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const rows = await (await getDb()).select().from(propertyOwners).where(eq(propertyOwners.externalOrgId, externalOrgId));
    expect(rows).toHaveLength(1);
    expect(new Set(answers.map((a) => a.body.property_owner.owner_slug)).size).toBe(1);
  });

  it("gives distinct slugs to owners with the same name", async () => {
    const token = await (await newClient()).token();
    const slugs = await Promise.all(
      Array.from({ length: 5 }, async () => (await upsert(token, { external_org_id: unique("org"), name: "Same Name LLC" })).body.property_owner.owner_slug),
    );
    expect(new Set(slugs).size).toBe(5);
  });
});
