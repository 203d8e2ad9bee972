import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { staff } from "@/test/console";
import { getDb } from "../../../server/db/client";
import { appErrorOf, fieldMessagesOf } from "../../../server/errors";
import { decryptSecret } from "../../../server/secrets";
import { newClient, newOwner, unique } from "../../../test/factories";
import { receiversOfThisFile } from "../../../test/https-receiver";
import { queuedJobs, runDueJobs } from "../../../test/jobs";
import { auditLog } from "../../audit/audit-log.table";
import { reevaluationJobKey } from "../../prospects/prospect__reevaluate";
import { emitEvent } from "../../webhooks/emit";
import { ROTATION_WINDOW_MS } from "../../webhooks/secrets";
import { verifySignature, webhookPartner } from "../../webhooks/webhook-test-helpers";
import { duplicatePair, loadedOwner } from "../merge/merge-test-helpers";
import { propertyOwners } from "../owners.table";

const receiver = receiversOfThisFile();

async function auditOf(slug: string) {
  return (await getDb())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "owner"), eq(auditLog.subjectId, slug)))
    .orderBy(auditLog.id);
}

async function ownerRow(id: number) {
  const [row] = await (await getDb()).select().from(propertyOwners).where(eq(propertyOwners.id, id));
  return row;
}

describe("console owners: list and detail (decisions §12 Owners)", () => {
  it("searches by name, slug or external_org_id; `%` is a literal", async () => {
    const client = await newClient();
    const name = unique("Searchable Holdings");
    const owner = await newOwner(client, { name });
    const am = await staff("account_manager");
    expect((await am.owners.list({ query: name.toUpperCase() })).map((row) => row.owner_slug)).toEqual([owner.slug]);
    expect((await am.owners.list({ query: owner.externalOrgId })).map((row) => row.owner_slug)).toEqual([owner.slug]);
    expect(await am.owners.list({ query: "%" })).toEqual([]);
    expect((await am.owners.list()).length).toBeGreaterThan(0);
  });

  it("shows settings, roster counts with building links, prospects, policies, endpoints and grants, never an account number", async () => {
    const client = await newClient();
    const { owner, endpointId } = await loadedOwner(client, "detail", ["d-1", "d-2"]);
    const detail = await (await staff("account_manager")).owners.detail({ slug: owner.slug });
    expect(detail).toMatchObject({
      id: owner.id,
      owner_slug: owner.slug,
      external_org_id: owner.externalOrgId,
      managed: false,
      purchase_flow_enabled: false,
      embedded_frame_ancestors: [],
      merged_into: null,
      merged_from: [],
      roster: { buildings_active: 2, buildings_inactive: 0, units: 1, bank_accounts: 1 },
      prospects: 2,
      policies: 0,
      endpoints: [{ id: endpointId, name: "hook detail", destination_url: "https://localhost:9/hook", status: "active", suspension_reason: null }],
      client_grants: [{ client_id: client.clientId, client_name: expect.any(String), disabled: false }],
      signing_secret: { previous_valid_until: null },
    });
    expect(detail.roster.buildings.map((b) => b.external_system_id).sort()).toEqual(["b-detail", "b1"]);
    const text = JSON.stringify(detail);
    expect(text).not.toContain("000123456789");
    expect(text).not.toContain(decryptSecret((await ownerRow(owner.id)).signingSecretEncrypted));
  });

  it("shows a merged owner pointing at its survivor, and the survivor listing it", async () => {
    const { duplicate, survivor } = await duplicatePair();
    await (await staff()).ownerMerge.merge({ from: duplicate.owner.slug, into: survivor.owner.slug, confirm: duplicate.owner.slug });
    const am = await staff("account_manager");
    expect((await am.owners.detail({ slug: duplicate.owner.slug })).merged_into).toEqual({ owner_slug: survivor.owner.slug, name: survivor.owner.name });
    expect((await am.owners.detail({ slug: survivor.owner.slug })).merged_from).toEqual([
      { owner_slug: duplicate.owner.slug, name: duplicate.owner.name, merged_at: expect.any(String) },
    ]);
    // The duplicate's secret and settings are the survivor's business now.
    await expect(am.owners.revealSecret({ slug: duplicate.owner.slug })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(am.owners.rotateSecret({ slug: duplicate.owner.slug })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(am.owners.updateSettings({ slug: duplicate.owner.slug, max_coverage_amount_cents: 1 })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("answers NOT_FOUND for an unknown slug and UNAUTHORIZED to an anonymous caller", async () => {
    const am = await staff("account_manager");
    const slug = unique("no-such-owner");
    await expect(am.owners.detail({ slug })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(am.owners.revealSecret({ slug })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(am.owners.rotateSecret({ slug })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(am.owners.updateSettings({ slug, purchase_flow_enabled: true })).rejects.toMatchObject({ code: "NOT_FOUND" });
    const owner = await newOwner(await newClient());
    const anonymous = await staff(null);
    await expect(anonymous.owners.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.owners.detail({ slug: owner.slug })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.owners.revealSecret({ slug: owner.slug })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.owners.rotateSecret({ slug: owner.slug })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.owners.updateSettings({ slug: owner.slug, max_coverage_amount_cents: 5 })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await auditOf(owner.slug)).toEqual([]);
  });
});

describe("console owners: signing secret (spec Webhook signing secret)", () => {
  it("reveals the secret to an account manager, audited as revealed without the value", async () => {
    const owner = await newOwner(await newClient());
    const revealed = await (await staff("account_manager")).owners.revealSecret({ slug: owner.slug });
    expect(revealed).toEqual({ signing_secret: decryptSecret(owner.signingSecretEncrypted), previous_valid_until: null });
    const [row] = await auditOf(owner.slug);
    expect(row).toMatchObject({
      action: "owner.signing_secret_revealed",
      actorLabel: "account_manager@example.com",
      ownerId: owner.id,
      before: null,
      after: null,
    });
    expect(JSON.stringify(row)).not.toContain(revealed.signing_secret);
  });

  it("rotates: new deliveries are signed with the new secret and the old one for the window, audited without either", async () => {
    const { owner, register, secrets } = await webhookPartner();
    const hook = await receiver();
    await register(hook.url, ["prospect.created"]);
    const old = (await secrets()).current;
    const started = Date.now();
    const rotated = await (await staff("account_manager")).owners.rotateSecret({ slug: owner.slug });
    expect(rotated.signing_secret).not.toBe(old);
    expect(rotated.signing_secret).toBe((await secrets()).current);
    const until = Date.parse(String(rotated.previous_valid_until));
    expect(until).toBeGreaterThanOrEqual(started + ROTATION_WINDOW_MS);
    expect(until).toBeLessThanOrEqual(Date.now() + ROTATION_WINDOW_MS);
    expect((await (await staff()).owners.detail({ slug: owner.slug })).signing_secret.previous_valid_until).toBe(rotated.previous_valid_until);

    await emitEvent(await getDb(), { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: "after-rotation" } });
    await runDueJobs();
    const [request] = hook.received;
    const verify = (secret: string) => verifySignature(request.headers["x-webhook-signature"], request.headers["x-webhook-timestamp"], request.rawBody, secret);
    expect(verify(rotated.signing_secret)).toBe(true);
    expect(verify(old)).toBe(true);
    expect(verify("whsec_not-a-secret-of-this-owner")).toBe(false);

    const [row] = await auditOf(owner.slug);
    expect(row).toMatchObject({
      action: "owner.signing_secret_rotated",
      before: { previous_valid_until: null },
      after: { previous_valid_until: rotated.previous_valid_until },
    });
    expect(JSON.stringify(row)).not.toContain(old);
    expect(JSON.stringify(row)).not.toContain(rotated.signing_secret);
  });
});

describe("console owners: settings (spec Property owner activation)", () => {
  it("changes the coverage ceiling with the owner's prospects re-evaluated in the same change, audited", async () => {
    const { owner } = await loadedOwner(await newClient(), "ceiling", ["c-1"]);
    const key = reevaluationJobKey({ ownerId: owner.id });
    const queued = async () => (await queuedJobs("prospect__reevaluate")).filter((job) => job.key === key);
    expect(await queued()).toEqual([]);
    const detail = await (await staff("account_manager")).owners.updateSettings({ slug: owner.slug, max_coverage_amount_cents: 250_000 });
    expect(detail.max_coverage_amount_cents).toBe(250_000);
    expect(await queued()).toHaveLength(1);
    const rows = await auditOf(owner.slug);
    expect(rows.map((row) => [row.action, row.before, row.after])).toEqual([
      [
        "owner.settings_changed",
        { purchase_flow_enabled: false, max_coverage_amount_cents: null },
        { purchase_flow_enabled: false, max_coverage_amount_cents: 250_000 },
      ],
    ]);
    // The same value again changes nothing and writes no row.
    await (await staff()).owners.updateSettings({ slug: owner.slug, max_coverage_amount_cents: 250_000 });
    expect(await auditOf(owner.slug)).toHaveLength(1);
    // Opening the purchase flow on a loaded roster works and is audited too.
    expect((await (await staff()).owners.updateSettings({ slug: owner.slug, purchase_flow_enabled: true })).purchase_flow_enabled).toBe(true);
    expect((await auditOf(owner.slug)).at(-1)?.after).toEqual({ purchase_flow_enabled: true, max_coverage_amount_cents: 250_000 });
  });

  it("refuses to open the purchase flow before the roster is loaded, and bad input, changing nothing", async () => {
    const owner = await newOwner(await newClient());
    const failure = await (await staff()).owners.updateSettings({ slug: owner.slug, purchase_flow_enabled: true }).catch((error) => error);
    expect(failure).toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    const known = appErrorOf(failure);
    expect(known && fieldMessagesOf(known)).toEqual({ purchase_flow_enabled: [expect.stringContaining("roster is loaded")] });
    const bad = await (await staff()).owners.updateSettings({ slug: owner.slug, max_coverage_amount_cents: -5 }).catch((error) => error);
    expect(bad).toMatchObject({ code: "BAD_REQUEST" });
    expect(bad.cause.issues.map((issue: { path: string[] }) => issue.path)).toEqual([["max_coverage_amount_cents"]]);
    const row = await ownerRow(owner.id);
    expect([row.purchaseFlowEnabled, row.maxCoverageAmountCents]).toEqual([false, null]);
    expect(await auditOf(owner.slug)).toEqual([]);
  });
});
