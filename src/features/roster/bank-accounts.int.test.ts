import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { decryptSecret } from "../../server/secrets";
import { ROSTER_MESSAGES } from "./messages";
import { bankAccounts } from "./roster.table";
import { bankAccountItem, onboardingPartner } from "./roster-test-helpers";

const account = bankAccountItem;

describe("POST /partners/{owner_slug}/bank_accounts (spec Bank account rules)", () => {
  it("creates accounts, makes the first the default, and never returns the account number", async () => {
    const { post, owner } = await onboardingPartner();
    const answer = await post("bank_accounts", [account("ba-1"), account("ba-2", { account_number: "98765" })]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status_code: 200,
      results: [
        {
          external_system_id: "ba-1",
          action: "created",
          display_name: "Operating ba-1",
          routing_number: "021000021",
          account_number_last4: "6789",
          default: true,
        },
        {
          external_system_id: "ba-2",
          action: "created",
          display_name: "Operating ba-2",
          routing_number: "021000021",
          account_number_last4: "8765",
          default: false,
        },
      ],
      meta: { created: 2, updated: 0, failed: 0 },
    });
    expect(answer.text).not.toContain("000123456789");
    const rows = await (await getDb()).select().from(bankAccounts).where(eq(bankAccounts.ownerId, owner.id));
    expect(rows.map((row) => row.accountNumberEncrypted).join()).not.toContain("000123456789");
    expect(decryptSecret(rows.find((row) => row.externalSystemId === "ba-1")?.accountNumberEncrypted ?? "")).toBe("000123456789");
  });

  it("moves the default with default: true and refuses default: false on the current default", async () => {
    const { post } = await onboardingPartner();
    await post("bank_accounts", [account("a"), account("b")]);
    const moved = await post("bank_accounts", [{ external_system_id: "b", default: true }]);
    expect(moved.body.results[0]).toMatchObject({ external_system_id: "b", action: "updated", default: true });
    const refused = await post("bank_accounts", [
      { external_system_id: "b", default: false },
      { external_system_id: "a", display_name: "Renamed" },
    ]);
    expect(refused.body.results).toEqual([
      { external_system_id: "b", action: "failed", errors: { default: [ROSTER_MESSAGES.cannotUnsetDefault] } },
      { external_system_id: "a", action: "updated", display_name: "Renamed", routing_number: "021000021", account_number_last4: "6789", default: false },
    ]);
    expect(refused.body.meta).toEqual({ created: 0, updated: 1, failed: 1 });
    const noop = await post("bank_accounts", [{ external_system_id: "a", default: false }]);
    expect(noop.body.results[0]).toMatchObject({ action: "updated", default: false });
  });

  it("updates only present fields and is safe to resend", async () => {
    const { post } = await onboardingPartner();
    await post("bank_accounts", [account("x")]);
    const again = await post("bank_accounts", [account("x")]);
    expect(again.body.results[0]).toMatchObject({ action: "updated", default: true });
    const partial = await post("bank_accounts", [{ external_system_id: "x", account_number: "55554444" }]);
    expect(partial.body.results[0]).toMatchObject({ display_name: "Operating x", account_number_last4: "4444" });
  });

  it("fails invalid items alone with errors keyed by field", async () => {
    const { post } = await onboardingPartner();
    const answer = await post("bank_accounts", [
      account("ok"),
      account("bad-routing", { routing_number: "12345" }),
      account("bad-account", { account_number: "12-34" }),
      { external_system_id: "missing" },
      { display_name: "no id" },
      "not an object",
      account("long", { account_number: "1".repeat(21) }),
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body.results.map((r) => [r.external_system_id, r.action, r.errors])).toEqual([
      ["ok", "created", undefined],
      ["bad-routing", "failed", { routing_number: ["must be exactly 9 digits"] }],
      ["bad-account", "failed", { account_number: ["must be digits, at most 20"] }],
      ["missing", "failed", { display_name: ["is required"], routing_number: ["is required"], account_number: ["is required"] }],
      [null, "failed", { external_system_id: ["is required"] }],
      [null, "failed", { base: [ROSTER_MESSAGES.notAnObject] }],
      ["long", "failed", { account_number: ["must be digits, at most 20"] }],
    ]);
    expect(answer.body.meta).toEqual({ created: 1, updated: 0, failed: 6 });
  });

  it("refuses a batch over 500 items whole, before any item is processed", async () => {
    const { post, owner } = await onboardingPartner();
    const answer = await post(
      "bank_accounts",
      Array.from({ length: 501 }, (_, i) => account(`acct-${i}`)),
    );
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ status_code: 422, error: "Batch is invalid", errors: { base: [ROSTER_MESSAGES.batchTooLarge(501)] } });
    expect(await (await getDb()).select().from(bankAccounts).where(eq(bankAccounts.ownerId, owner.id))).toEqual([]);
    const object = await post("bank_accounts", { external_system_id: "not-an-array" });
    expect(object.status).toBe(422);
    expect(object.body).toMatchObject({ errors: { base: [ROSTER_MESSAGES.notAnArray] } });
  });

  it("accepts exactly 500 items", async () => {
    const { post } = await onboardingPartner();
    const answer = await post(
      "bank_accounts",
      Array.from({ length: 500 }, (_, i) => account(`acct-${i}`)),
    );
    expect(answer.body.meta).toEqual({ created: 500, updated: 0, failed: 0 });
  });
});
