import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { AppError } from "../../../server/errors";
import { newClient, newOwner } from "../../../test/factories";
import { UNDERWRITING_MESSAGES } from "./messages";
import { DEFAULT_UNDERWRITING_RULES } from "./rules";
import { underwritingRules } from "./rules.table";
import { clearUnderwritingRules, setUnderwritingRules, underwritingRulesFor } from "./rules-store";

async function caught(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

describe("underwritingRulesFor / setUnderwritingRules (docs/underwriting.md)", () => {
  it("gives the defaults to an owner without an override", async () => {
    const owner = await newOwner(await newClient());
    expect(await underwritingRulesFor(await getDb(), owner.id)).toEqual(DEFAULT_UNDERWRITING_RULES);
  });

  it("merges an owner's override with the defaults, for that owner only, and replaces it on the next write", async () => {
    const client = await newClient();
    const [owner, other] = [await newOwner(client), await newOwner(client)];
    const db = await getDb();
    const answered = await setUnderwritingRules(db, owner.id, { securityDepositInsurance: { upfrontRateBps: 2_000 }, cashDeposit: { enabled: false } });
    const expected = {
      ...DEFAULT_UNDERWRITING_RULES,
      securityDepositInsurance: { ...DEFAULT_UNDERWRITING_RULES.securityDepositInsurance, upfrontRateBps: 2_000 },
      cashDeposit: { ...DEFAULT_UNDERWRITING_RULES.cashDeposit, enabled: false },
    };
    expect(answered).toEqual(expected);
    expect(await underwritingRulesFor(db, owner.id)).toEqual(expected);
    expect(await underwritingRulesFor(db, other.id)).toEqual(DEFAULT_UNDERWRITING_RULES);

    await setUnderwritingRules(db, owner.id, { guarantee: { minIncomeToAnnualRent: null } });
    const replaced = await underwritingRulesFor(db, owner.id);
    expect(replaced.securityDepositInsurance).toEqual(DEFAULT_UNDERWRITING_RULES.securityDepositInsurance);
    expect(replaced.guarantee.minIncomeToAnnualRent).toBeNull();

    await clearUnderwritingRules(db, owner.id);
    expect(await underwritingRulesFor(db, owner.id)).toEqual(DEFAULT_UNDERWRITING_RULES);
  });

  it("refuses an invalid override with field errors and keeps the previous one", async () => {
    const owner = await newOwner(await newClient());
    const db = await getDb();
    await setUnderwritingRules(db, owner.id, { securityDepositInsurance: { upfrontRateBps: 2_000 } });
    const error = await caught(
      setUnderwritingRules(db, owner.id, { securityDepositInsurance: { upfrontRateBps: 20_000, monthlyInstallmentz: 3 }, guarantee: { productVersion: "v2" } }),
    );
    expect(error.kind).toBe("invalid");
    expect(error.message).toBe(UNDERWRITING_MESSAGES.rulesInvalid);
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(["guarantee.productVersion", "securityDepositInsurance", "securityDepositInsurance.upfrontRateBps"]);
    expect((await underwritingRulesFor(db, owner.id)).securityDepositInsurance.upfrontRateBps).toBe(2_000);
  });

  it("answers not found for an unknown owner", async () => {
    const error = await caught(setUnderwritingRules(await getDb(), 2_000_000_000, {}));
    expect([error.kind, error.message]).toEqual(["not_found", UNDERWRITING_MESSAGES.ownerNotFound]);
  });

  it("refuses to price on a stored override written around the validation", async () => {
    const owner = await newOwner(await newClient());
    const db = await getDb();
    await db.insert(underwritingRules).values({ ownerId: owner.id, rules: { securityDepositInsurance: { upfrontRateBps: -5 } } });
    const error = await caught(underwritingRulesFor(db, owner.id));
    expect([error.kind, error.message]).toEqual(["internal", UNDERWRITING_MESSAGES.storedRulesInvalid]);
    expect(error.fields).toHaveProperty(["securityDepositInsurance.upfrontRateBps"]);
  });
});
