import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { isOwnerGranted } from "../features/auth/clients";
import { apiClients } from "../features/auth/clients.table";
import { checkCredentials } from "../features/console/users";
import { frameOrigins } from "../features/enrollment/frame-origins.table";
import { ownerBuildingGrants } from "../features/owners/owners.table";
import { findOwnerBySlug } from "../features/owners/service";
import { sources } from "../features/prospects/sources.table";
import { providerOwners, providers } from "../features/webhooks/providers.table";
import { getDb } from "../server/db/client";
import { decryptSecret } from "../server/secrets";
import { unique } from "../test/factories";
import { call } from "../test/http";
import { admin } from "./admin-test-helpers";

afterEach(() => vi.restoreAllMocks());

describe("npm run admin (decisions §4)", () => {
  it("client create prints credentials that work at the token route, with every scope by default", async () => {
    const { code, out } = await admin("client", "create", "--name", "Acme PMS");
    expect(code).toBe(0);
    expect(Object.keys(out).sort()).toEqual(["audience", "client_id", "client_secret", "scopes"]);
    expect(out.scopes).toHaveLength(8);
    const token = await call("POST", "/api/token", {
      body: { grant_type: "client_credentials", client_id: out.client_id, client_secret: out.client_secret, audience: out.audience },
    });
    expect(token.status).toBe(200);
  });

  it("client create narrows scopes, makes ingestion clients, and refuses a scope of the other gateway", async () => {
    const narrow = await admin("client", "create", "--name", "Reader", "--scopes", "prospects:read,move_outs:read", "--require-signature");
    expect(narrow.out.scopes).toEqual(["prospects:read", "move_outs:read"]);
    const ingestion = await admin("client", "create", "--name", "Events", "--gateway", "ingestion");
    expect(ingestion.out.scopes).toEqual(["events:write"]);
    expect(ingestion.out.audience).toBe("urn:pis:ingestion:staging");
    const wrong = await admin("client", "create", "--name", "Bad", "--gateway", "ingestion", "--scopes", "owners:write");
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain("Unknown ingestion scopes: owners:write");
  });

  it("client create --partner-client-id ties an ingestion client to a Partner API client, and refuses any other (decisions §15 Ingestion)", async () => {
    const partner = await admin("client", "create", "--name", "Partner");
    const partnerId = String(partner.out.client_id);
    const tied = await admin("client", "create", "--name", "Events", "--gateway", "ingestion", "--partner-client-id", partnerId);
    expect(tied.code).toBe(0);
    const [row] = await (await getDb())
      .select()
      .from(apiClients)
      .where(eq(apiClients.id, String(tied.out.client_id)));
    expect(row).toMatchObject({ gateway: "ingestion", partnerClientId: partnerId });
    const count = async () => (await (await getDb()).select().from(apiClients)).length;
    const before = await count();
    for (const [args, message] of [
      [["--gateway", "ingestion", "--partner-client-id", "pc_missing"], "No active client pc_missing"],
      [["--gateway", "ingestion", "--partner-client-id", String(tied.out.client_id)], `Client ${tied.out.client_id} is not a Partner API client`],
      [["--partner-client-id", partnerId], "--partner-client-id is for --gateway ingestion"],
    ]) {
      const refused = await admin("client", "create", "--name", "Bad", ...args);
      expect(refused.code).not.toBe(0);
      expect(refused.out).toEqual({});
      expect(refused.err).toContain(message);
    }
    expect(await count()).toBe(before);
  });

  it("owner create-managed makes an owner partners cannot create, grant-building grants access to it", async () => {
    const externalOrgId = unique("direct");
    const managed = await admin("owner", "create-managed", "--name", "Direct Living", "--external-org-id", externalOrgId);
    expect(managed.code).toBe(0);
    const slug = String(managed.out.owner_slug);
    const client = await admin("client", "create", "--name", "Partner");
    const token = await call<{ access_token: string }>("POST", "/api/token", {
      body: { grant_type: "client_credentials", client_id: client.out.client_id, client_secret: client.out.client_secret, audience: client.out.audience },
    });
    const conflict = await call("POST", "/api/partners/property_owners", {
      token: token.body.access_token,
      body: { external_org_id: externalOrgId, name: "Mine" },
    });
    expect(conflict.status).toBe(409);

    const granted = await admin(
      "owner",
      "grant-building",
      "--owner",
      slug,
      "--client-id",
      String(client.out.client_id),
      "--pms-type",
      "pms_one",
      "--pms-property-id",
      "P-100",
    );
    expect(granted.code).toBe(0);
    const db = await getDb();
    const owner = await findOwnerBySlug(db, slug);
    expect(owner?.managed).toBe(true);
    expect(await isOwnerGranted(db, String(client.out.client_id), owner?.id ?? -1)).toBe(true);
    const grants = await db
      .select()
      .from(ownerBuildingGrants)
      .where(eq(ownerBuildingGrants.ownerId, owner?.id ?? -1));
    expect(grants.map((g) => [g.pmsType, g.pmsPropertyId])).toEqual([["pms_one", "P-100"]]);
  });

  it("client grant grants an existing owner; owner secret prints the owner's signing secret", async () => {
    const creator = await admin("client", "create", "--name", "Creator");
    const managed = await admin("owner", "create-managed", "--name", "Granted Co", "--external-org-id", unique("g"));
    const slug = String(managed.out.owner_slug);
    const grant = await admin("client", "grant", "--client-id", String(creator.out.client_id), "--owner", slug);
    expect(grant.out).toEqual({ client_id: creator.out.client_id, owner_slug: slug });
    const secret = await admin("owner", "secret", "--owner", slug);
    const owner = await findOwnerBySlug(await getDb(), slug);
    expect(secret.out).toEqual({ signing_secret: decryptSecret(owner?.signingSecretEncrypted ?? "") });
    expect(String(secret.out.signing_secret)).toMatch(/^whsec_/);
    const rotated = await admin("owner", "rotate-secret", "--owner", slug);
    expect(rotated.out.signing_secret).not.toBe(secret.out.signing_secret);
    expect((await admin("owner", "secret", "--owner", slug)).out.signing_secret).toBe(rotated.out.signing_secret);
    const unknown = await admin("owner", "secret", "--owner", "nobody-here");
    expect(unknown.code).toBe(1);
  });

  it("source create, provider create and frame-origin add record what later features use", async () => {
    const client = await admin("client", "create", "--name", "Sourcer");
    const clientId = String(client.out.client_id);
    const code = unique("src").replace("-", "_");
    const source = await admin(
      "source",
      "create",
      "--code",
      code,
      "--client-id",
      clientId,
      "--flow",
      "expedited",
      "--optional-ingest-fields",
      "--redirect-domain",
      "apply.example.com",
      "--redirect-domain",
      "*.example.org",
    );
    expect(source.out).toEqual({
      source: { code, client_id: clientId, flow: "expedited", optional_ingest_fields: true, redirect_domains: ["apply.example.com", "*.example.org"] },
    });
    expect((await (await getDb()).select().from(sources).where(eq(sources.code, code))).length).toBe(1);

    const owner = await admin("owner", "create-managed", "--name", "Covered", "--external-org-id", unique("c"));
    const providerCode = unique("prov");
    const provider = await admin("provider", "create", "--code", providerCode, "--client-id", clientId, "--owners", String(owner.out.owner_slug));
    expect(provider.out).toEqual({ provider: { code: providerCode, client_id: clientId, owners: [owner.out.owner_slug], buildings: [] } });
    const db = await getDb(); // each admin run closes the pool it used
    const [row] = await db.select().from(providers).where(eq(providers.code, providerCode));
    expect(decryptSecret(row.signingSecretEncrypted)).toMatch(/^whsec_/);
    expect(await db.select().from(providerOwners).where(eq(providerOwners.providerId, row.id))).toHaveLength(1);

    const origin = await admin("frame-origin", "add", "--origin", "https://Portal.Example.com");
    expect(origin.out).toEqual({ origin: "https://portal.example.com" });
    expect((await (await getDb()).select().from(frameOrigins)).map((o) => o.origin)).toContain("https://portal.example.com");
    const insecure = await admin("frame-origin", "add", "--origin", "http://portal.example.com");
    expect(insecure.code).toBe(1);
    // The CLI renders the one error model: message and kind, then each field's messages.
    expect(insecure.err).toMatch(
      /^Origin must be an HTTPS origin like https:\/\/portal\.example\.com.* \(invalid\)\n {2}origin: Origin must be an HTTPS origin/,
    );
    const unknownOwner = await admin("owner", "secret", "--owner", "no-such-owner");
    expect(unknownOwner.code).toBe(1);
    expect(unknownOwner.err).toContain("(not_found)");
  });

  it("user create stores a hashed password that signs in", async () => {
    const email = `${unique("ops")}@example.com`;
    const created = await admin("user", "create", "--email", email, "--password", "correct horse battery", "--role", "account_manager");
    expect(created.code).toBe(0);
    expect(created.out.user_id).toEqual(expect.any(Number));
    const db = await getDb();
    expect(await checkCredentials(db, email, "correct horse battery")).toMatchObject({ email, role: "account_manager" });
    expect(await checkCredentials(db, email, "wrong")).toBeNull();
    const badRole = await admin("user", "create", "--email", "x@example.com", "--password", "longenough", "--role", "admin");
    expect(badRole.code).toBe(2);
  });

  it("answers an unknown command or a missing flag with a usage message and exit code 2", async () => {
    expect((await admin("nothing", "here")).code).toBe(2);
    const missing = await admin("client", "create");
    expect(missing.code).toBe(2);
    expect(missing.err).toContain("--name is required");
  });

  it("runs as a real process through npm's entry point and prints exactly one JSON object", async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/admin.ts", "client", "create", "--name", "Spawned"], {
      env: process.env,
    });
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]).client_id).toMatch(/^pc_/);
  }, 60_000);
});
