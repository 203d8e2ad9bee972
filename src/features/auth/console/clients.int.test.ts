import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { appErrorOf, fieldMessagesOf } from "@/server/errors";
import { fieldErrorsOf } from "@/server/http/input-errors";
import { logger } from "@/server/log";
import type { ConsoleUser } from "@/server/trpc/context";
import { newClient, newOwner, unique } from "@/test/factories";
import { call } from "@/test/http";
import { auditLog } from "../../audit/audit-log.table";
import { mergeOwners } from "../../owners/merge/merge";
import { createManagedOwner } from "../../owners/service";
import { apiClients } from "../clients.table";
import { audienceOf } from "../tokens";

/**
 * docs/decisions.md, "Console: access management, part A": API clients from the console, through the real console router,
 * and their effect proven through the real Partner API handler.
 */

const operator: ConsoleUser = { id: 1, email: "ops@example.com", role: "operator" };
const manager: ConsoleUser = { id: 2, email: "am@example.com", role: "account_manager" };

async function as(user: ConsoleUser | null) {
  return consoleRouter.createCaller({ db: await getDb(), log: logger(), requestId: "req-access", user });
}

async function auditOf(clientId: string) {
  return (await as(operator)).audit.search({ subjectType: "client", subjectId: clientId });
}

async function token(clientId: string, secret: string) {
  return call<{ access_token?: string; scope?: string; error?: string }>("POST", "/api/token", {
    body: { grant_type: "client_credentials", client_id: clientId, client_secret: secret, audience: audienceOf("partner") },
  });
}

/** The fields a console failure names: input validation (BAD_REQUEST) or a domain `invalid` (422). */
function fieldsOf(error: unknown): Record<string, string[]> {
  const known = appErrorOf(error);
  if (known) return fieldMessagesOf(known);
  return fieldErrorsOf((error as { cause: Parameters<typeof fieldErrorsOf>[0] }).cause);
}

/** An owner route that answers 404 for an unknown move-out once the caller passed the token, scope and grant checks. */
const probe = (accessToken: string, slug: string) => call("GET", `/api/partners/${slug}/move_outs/nope`, { token: accessToken });

/** An owner created by another partner, to be granted from the console. */
async function someOwner() {
  return newOwner(await newClient());
}

describe("console: API clients (docs/decisions.md, Console: access management, part A)", () => {
  it("creates a client whose secret is answered once, never stored in the clear or audited, and that can call a granted owner", async () => {
    const owner = await someOwner();
    const created = await (await as(manager)).accessClients.create({ name: "Acme PMS", gateway: "partner", require_signature: false });
    expect(created.client).toMatchObject({
      name: "Acme PMS",
      gateway: "partner",
      scopes: expect.arrayContaining(["owners:write", "move_outs:read"]),
      owner_grants: 0,
    });
    expect(created.client.scopes).toHaveLength(8);
    expect(created.client_secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    // The detail and the search never carry the secret.
    const detail = await (await as(manager)).accessClients.detail({ client_id: created.client.client_id });
    expect(JSON.stringify(detail)).not.toContain(created.client_secret);
    expect(detail.gateway_scopes).toHaveLength(8);
    const found = await (await as(manager)).accessClients.search({ query: "acme pms" });
    expect(found.map((c) => c.client_id)).toContain(created.client.client_id);
    expect(JSON.stringify(found)).not.toContain(created.client_secret);

    const [row] = await (await getDb()).select().from(apiClients).where(eq(apiClients.id, created.client.client_id));
    expect(JSON.stringify(row)).not.toContain(created.client_secret);
    const log = await auditOf(created.client.client_id);
    expect(log).toEqual([
      expect.objectContaining({ action: "clients.create", actor: "am@example.com", before: null, after: expect.objectContaining({ name: "Acme PMS" }) }),
    ]);
    expect(JSON.stringify(log)).not.toContain(created.client_secret);

    // Not granted yet: 403; granted from the console: passes the grant check (404 for the unknown move-out).
    const exchanged = await token(created.client.client_id, created.client_secret);
    expect(exchanged.status).toBe(200);
    const bearer = exchanged.body.access_token as string;
    expect((await probe(bearer, owner.slug)).status).toBe(403);
    const granted = await (await as(manager)).accessClients.grantOwner({ client_id: created.client.client_id, owner_slug: owner.slug });
    expect(granted).toEqual({ client_id: created.client.client_id, owner_slug: owner.slug, changed: true });
    expect((await probe(bearer, owner.slug)).status).toBe(404);

    // Granting again is an idempotent success with no second audit row.
    expect((await (await as(manager)).accessClients.grantOwner({ client_id: created.client.client_id, owner_slug: owner.slug })).changed).toBe(false);
    const grants = (await auditOf(created.client.client_id)).filter((r) => r.action === "clients.grant_owner");
    expect(grants).toEqual([expect.objectContaining({ before: { owner_slug: owner.slug, granted: false }, after: { owner_slug: owner.slug, granted: true } })]);
    expect((await (await as(manager)).accessClients.detail({ client_id: created.client.client_id })).grants.map((g) => g.owner_slug)).toEqual([owner.slug]);

    // Revoked: the next request is refused.
    await (await as(operator)).accessClients.revokeOwner({ client_id: created.client.client_id, owner_slug: owner.slug });
    const refused = await probe(bearer, owner.slug);
    expect([refused.status, refused.body]).toEqual([403, { status_code: 403, error: "Client is not authorized for this property owner" }]);
    expect((await auditOf(created.client.client_id)).map((r) => r.action)).toEqual(["clients.revoke_owner", "clients.grant_owner", "clients.create"]);
    await expect((await as(operator)).accessClients.revokeOwner({ client_id: created.client.client_id, owner_slug: owner.slug })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: `Client ${created.client.client_id} has no grant of owner ${owner.slug}`,
    });
  });

  it("creates with chosen scopes of the gateway only, and refuses other gateways' scopes naming the field", async () => {
    const caller = await as(operator);
    const ingestion = await caller.accessClients.create({ name: "Feeds", gateway: "ingestion", require_signature: true });
    expect(ingestion.client).toMatchObject({ gateway: "ingestion", scopes: ["events:write"], require_signature: true });
    expect(ingestion.client.client_id).toMatch(/^ic_/);
    const narrow = await caller.accessClients.create({ name: "Reader", gateway: "partner", scopes: ["prospects:read"], provider_code: "" });
    expect(narrow.client.scopes).toEqual(["prospects:read"]);

    const before = (await caller.accessClients.search({})).length;
    for (const bad of [
      { name: "Mixed", gateway: "partner" as const, scopes: ["events:write" as const] },
      { name: "Mixed", gateway: "ingestion" as const, scopes: ["owners:write" as const] },
    ]) {
      const failure = await caller.accessClients.create(bad).catch((error) => error);
      expect(failure).toMatchObject({ code: "BAD_REQUEST" });
      expect(fieldsOf(failure).scopes[0]).toMatch(/^Scopes not of the (partner|ingestion) gateway/);
    }
    for (const bad of [
      { name: " ", gateway: "partner" },
      { name: "X", gateway: "nope" },
      { name: "X", gateway: "partner", scopes: ["root"] },
      { name: "X", gateway: "partner", scopes: [] },
      { name: "X", gateway: "partner", provider_code: "Bad Code" },
    ])
      await expect(caller.accessClients.create(bad as never)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await caller.accessClients.search({})).length).toBe(before);
    expect(await caller.accessClients.search({ query: "Mixed" })).toEqual([]);
  });

  it("ties an ingestion client to an active Partner API client, audited; refuses any other partner client naming the field (decisions §15 Ingestion)", async () => {
    const caller = await as(manager);
    const partner = await newClient();
    const tied = await caller.accessClients.create({ name: "Events", gateway: "ingestion", partner_client_id: ` ${partner.clientId} ` });
    expect(tied.client).toMatchObject({ gateway: "ingestion", partner_client_id: partner.clientId });
    expect((await caller.accessClients.detail({ client_id: tied.client.client_id })).partner_client_id).toBe(partner.clientId);
    expect((await auditOf(tied.client.client_id))[0].after).toMatchObject({ partner_client_id: partner.clientId });
    const none = await caller.accessClients.create({ name: "Own sources", gateway: "ingestion", partner_client_id: "" });
    expect(none.client.partner_client_id).toBeNull();

    const disabled = await newClient();
    await caller.accessClients.setDisabled({ client_id: disabled.clientId, disabled: true });
    const before = (await caller.accessClients.search({})).length;
    for (const [input, message] of [
      [{ gateway: "ingestion", partner_client_id: "pc_nope" }, "No active client pc_nope"],
      [{ gateway: "ingestion", partner_client_id: disabled.clientId }, `No active client ${disabled.clientId}`],
      [{ gateway: "ingestion", partner_client_id: tied.client.client_id }, `Client ${tied.client.client_id} is not a Partner API client`],
      [{ gateway: "partner", partner_client_id: partner.clientId }, "Only an ingestion client has a partner client"],
    ] as const) {
      const failure = await caller.accessClients.create({ name: "Bad", ...input }).catch((error) => error);
      expect(failure).toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
      expect(fieldsOf(failure)).toEqual({ partner_client_id: [message] });
    }
    expect((await caller.accessClients.search({})).length).toBe(before);
  });

  it("a removed scope is refused on the next request, even with a token issued before", async () => {
    const owner = await someOwner();
    const caller = await as(manager);
    const { client, client_secret } = await caller.accessClients.create({ name: "Scoped", gateway: "partner", require_signature: false });
    await caller.accessClients.grantOwner({ client_id: client.client_id, owner_slug: owner.slug });
    const bearer = (await token(client.client_id, client_secret)).body.access_token as string;
    expect((await probe(bearer, owner.slug)).status).toBe(404);

    const updated = await caller.accessClients.update({ client_id: client.client_id, scopes: ["owners:write", "prospects:read"] });
    expect(updated.scopes).toEqual(["owners:write", "prospects:read"]);
    const refused = await probe(bearer, owner.slug);
    expect([refused.status, refused.body]).toEqual([403, { message: "Forbidden" }]);
    // A new token cannot ask for it either.
    const asked = await call("POST", "/api/token", {
      body: { grant_type: "client_credentials", client_id: client.client_id, client_secret, audience: audienceOf("partner"), scope: "move_outs:read" },
    });
    expect(asked.status).toBe(400);

    const [entry] = await auditOf(client.client_id);
    expect(entry).toMatchObject({ action: "clients.update", before: expect.objectContaining({ scopes: expect.arrayContaining(["move_outs:read"]) }) });
    expect((entry.after as { scopes: string[] }).scopes).toEqual(["owners:write", "prospects:read"]);

    // Bad edits change nothing: no scope, another gateway's scope, an unknown client.
    await expect(caller.accessClients.update({ client_id: client.client_id, scopes: [] })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const foreign = await caller.accessClients.update({ client_id: client.client_id, scopes: ["events:write"] }).catch((error) => error);
    expect(foreign).toMatchObject({ code: "UNPROCESSABLE_CONTENT", message: "Scopes not of the partner gateway: events:write" });
    expect(fieldsOf(foreign)).toEqual({ scopes: ["Scopes not of the partner gateway: events:write"] });
    await expect(caller.accessClients.update({ client_id: "pc_nope", scopes: ["owners:write"] })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No client pc_nope",
    });
    expect((await caller.accessClients.detail({ client_id: client.client_id })).scopes).toEqual(["owners:write", "prospects:read"]);
    expect(await auditOf(client.client_id)).toHaveLength(3);

    // The signature requirement: the next signed-route request without a signature is refused.
    const same = await caller.accessClients.update({ client_id: client.client_id, scopes: ["prospects:read", "owners:write"] });
    expect(same.scopes).toEqual(["owners:write", "prospects:read"]);
    expect(await auditOf(client.client_id)).toHaveLength(3);
    const signed = await caller.accessClients.update({ client_id: client.client_id, require_signature: true, scopes: ["prospects:read"] });
    expect(signed.require_signature).toBe(true);
    const fresh = (await token(client.client_id, client_secret)).body.access_token as string;
    const unsigned = await call("GET", `/api/partners/${owner.slug}/prospects/src/p1`, { token: fresh });
    expect(unsigned.status).toBe(401);
  });

  it("rotating the secret answers a new one once; the old secret and its tokens stop working at once", async () => {
    const owner = await someOwner();
    const caller = await as(manager);
    const { client, client_secret: oldSecret } = await caller.accessClients.create({ name: "Rotating", gateway: "partner", require_signature: false });
    await caller.accessClients.grantOwner({ client_id: client.client_id, owner_slug: owner.slug });
    const oldToken = (await token(client.client_id, oldSecret)).body.access_token as string;
    expect((await probe(oldToken, owner.slug)).status).toBe(404);

    const rotated = await caller.accessClients.rotateSecret({ client_id: client.client_id });
    expect(rotated.client_secret).not.toBe(oldSecret);
    expect(rotated.client.secret_rotated_at).not.toBeNull();
    expect((await token(client.client_id, oldSecret)).status).toBe(401);
    expect((await probe(oldToken, owner.slug)).status).toBe(401);
    const newToken = await token(client.client_id, rotated.client_secret);
    expect(newToken.status).toBe(200);
    expect((await probe(newToken.body.access_token as string, owner.slug)).status).toBe(404);

    const log = await auditOf(client.client_id);
    expect(log[0]).toMatchObject({ action: "clients.rotate_secret", before: { secret_version: 1 }, after: { secret_version: 2 } });
    for (const secret of [oldSecret, rotated.client_secret]) expect(JSON.stringify(log)).not.toContain(secret);
    await expect(caller.accessClients.rotateSecret({ client_id: "pc_missing" })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses changes to a disabled client, unknown or merged owners, and names what was wrong", async () => {
    const caller = await as(operator);
    const { client } = await caller.accessClients.create({ name: "Retired", gateway: "partner", require_signature: false });
    await expect(caller.accessClients.grantOwner({ client_id: client.client_id, owner_slug: "no-such-owner" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No owner no-such-owner",
    });
    await expect(caller.accessClients.grantOwner({ client_id: "pc_nope", owner_slug: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
      message: "No client pc_nope",
    });
    await expect(caller.accessClients.detail({ client_id: "pc_nope" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await (await getDb()).update(apiClients).set({ disabledAt: new Date() }).where(eq(apiClients.id, client.client_id));
    const owner = await someOwner();
    await expect(caller.accessClients.grantOwner({ client_id: client.client_id, owner_slug: owner.slug })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(caller.accessClients.rotateSecret({ client_id: client.client_id })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await caller.accessClients.detail({ client_id: client.client_id })).disabled_at).not.toBeNull();
    expect(await auditOf(client.client_id)).toHaveLength(1);
    // A merged owner: its survivor is named instead (the picker lists survivors only).
    const { client: other } = await caller.accessClients.create({ name: "Other", gateway: "partner", require_signature: false });
    const survivor = await createManagedOwner(await getDb(), { name: unique("Managed"), externalOrgId: unique("org") });
    const duplicate = await someOwner();
    await mergeOwners(await getDb(), { cli: "test" }, { from: duplicate.slug, into: survivor.slug });
    const merged = await caller.accessClients.grantOwner({ client_id: other.client_id, owner_slug: duplicate.slug }).catch((error) => error);
    expect(merged).toMatchObject({
      code: "UNPROCESSABLE_CONTENT",
      message: `Owner ${duplicate.slug} was merged into ${survivor.slug}; grant ${survivor.slug}`,
    });
    expect(fieldsOf(merged)).toEqual({ owner_slug: [merged.message] });
    expect(await caller.accessClients.ownerOptions({ query: duplicate.slug })).toEqual([]);
    expect((await caller.accessClients.detail({ client_id: other.client_id })).grants).toEqual([]);
    const options = await caller.accessClients.ownerOptions({ query: owner.slug });
    expect(options).toEqual([{ owner_slug: owner.slug, name: owner.name, managed: false }]);
  });

  it("disables a client: no new token, its tokens refused on their next request; enabling restores it as it was", async () => {
    const owner = await someOwner();
    const caller = await as(manager);
    const { client, client_secret: secret } = await caller.accessClients.create({ name: "Leaky", gateway: "partner", require_signature: false });
    await caller.accessClients.grantOwner({ client_id: client.client_id, owner_slug: owner.slug });
    const bearer = (await token(client.client_id, secret)).body.access_token as string;
    expect((await probe(bearer, owner.slug)).status).toBe(404);

    const disabled = await caller.accessClients.setDisabled({ client_id: client.client_id, disabled: true });
    expect(disabled.disabled_at).not.toBeNull();
    expect(disabled.owner_grants).toBe(1);
    expect((await probe(bearer, owner.slug)).status).toBe(401);
    const refused = await token(client.client_id, secret);
    expect([refused.status, refused.body]).toEqual([401, { error: "access_denied", error_description: "Unauthorized" }]);
    // Asking again changes nothing and records nothing.
    expect((await caller.accessClients.setDisabled({ client_id: client.client_id, disabled: true })).disabled_at).toBe(disabled.disabled_at);

    const enabled = await caller.accessClients.setDisabled({ client_id: client.client_id, disabled: false });
    expect(enabled.disabled_at).toBeNull();
    expect((await probe(bearer, owner.slug)).status).toBe(404);
    expect((await token(client.client_id, secret)).status).toBe(200);

    const log = await auditOf(client.client_id);
    expect(log.slice(0, 2)).toEqual([
      expect.objectContaining({
        action: "clients.enable",
        actor: "am@example.com",
        before: { disabled_at: disabled.disabled_at },
        after: { disabled_at: null },
      }),
      expect.objectContaining({ action: "clients.disable", before: { disabled_at: null }, after: { disabled_at: disabled.disabled_at } }),
    ]);
    expect(log.filter((row) => row.action === "clients.disable")).toHaveLength(1);
    expect(JSON.stringify(log)).not.toContain(secret);
    await expect(caller.accessClients.setDisabled({ client_id: "pc_missing", disabled: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await as(null)).accessClients.setDisabled({ client_id: client.client_id, disabled: true })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    expect((await caller.accessClients.detail({ client_id: client.client_id })).disabled_at).toBeNull();
  });

  it("refuses anonymous callers; both roles may manage clients (decisions §12)", async () => {
    const anonymous = await as(null);
    const db = await getDb();
    const auditRows = (await db.select().from(auditLog)).length;
    await expect(anonymous.accessClients.search({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.accessClients.create({ name: "Nope", gateway: "partner", require_signature: false })).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
    await expect(anonymous.accessClients.rotateSecret({ client_id: "pc_x" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.accessClients.grantOwner({ client_id: "pc_x", owner_slug: "x" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.accessClients.revokeOwner({ client_id: "pc_x", owner_slug: "x" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.accessClients.update({ client_id: "pc_x", require_signature: true })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await db.select().from(apiClients).where(eq(apiClients.name, "Nope"))).length).toBe(0);
    expect((await db.select().from(auditLog)).length).toBe(auditRows);
    const permissions = Object.fromEntries(
      Object.entries(consoleRouter._def.procedures as unknown as Record<string, { _def: { meta?: { permission?: string } } }>)
        .filter(([path]) => path.startsWith("accessClients."))
        .map(([path, procedure]) => [path, procedure._def.meta?.permission]),
    );
    expect(permissions).toEqual({
      "accessClients.search": "access.read",
      "accessClients.detail": "access.read",
      "accessClients.ownerOptions": "access.read",
      "accessClients.create": "access.manage",
      "accessClients.update": "access.manage",
      "accessClients.setDisabled": "access.manage",
      "accessClients.rotateSecret": "secrets.manage",
      "accessClients.grantOwner": "access.manage",
      "accessClients.revokeOwner": "access.manage",
    });
  });
});
