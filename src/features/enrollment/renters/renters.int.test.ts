import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { unique } from "../../../test/factories";
import { cashDeposits, policies } from "../../policies/policies.table";
import { enrollmentPartnersOfThisFile, insertBarePolicy } from "../../policies/policy-test-helpers";
import { applications } from "../applications/applications.table";
import { startApplication } from "../applications/service";
import { RENTER_MESSAGES } from "./messages";
import { ensureRenterUser, linkResident, renterEmailKey } from "./renters";
import { residents } from "./residents.table";
import { renterUsers } from "./users.table";

const partner = enrollmentPartnersOfThisFile();

describe("renter users and residents (decisions §10 Renters)", () => {
  it("keys a user by its email trimmed and lower-cased: one user whatever the case", async () => {
    const db = await getDb();
    const email = `${unique("Case")}@Example.COM`;
    const first = await ensureRenterUser(db, `  ${email} `);
    const second = await ensureRenterUser(db, email.toUpperCase());
    expect(second.id).toBe(first.id);
    expect(first.email).toBe(renterEmailKey(email));
    expect(first.email).toBe(email.toLowerCase());
    // The check constraint refuses a row stored any other way.
    await expect(db.insert(renterUsers).values({ email: `${unique("Upper")}@EXAMPLE.com` })).rejects.toThrow();
  });

  it("starting an application stores the user of the prospect's email; no email is refused (409) and creates nothing", async () => {
    const p = await partner();
    const email = `${unique("start")}@example.com`;
    const prospect = await p.ready("ru-1", { email: email.toUpperCase() });
    const db = await getDb();
    const { application } = await db.transaction((tx) => startApplication(tx, prospect));
    const [user] = await db.select().from(renterUsers).where(eq(renterUsers.email, email));
    expect(application.userId).toBe(user.id);

    const other = await p.ready("ru-2", { email: `${unique("x")}@example.com` });
    await expect(db.transaction((tx) => startApplication(tx, { ...other, email: null }))).rejects.toMatchObject({
      kind: "conflict",
      message: RENTER_MESSAGES.emailRequired,
    });
    await expect(db.transaction((tx) => startApplication(tx, { ...other, email: "   " }))).rejects.toMatchObject({ kind: "conflict" });
    expect(await db.select().from(applications).where(eq(applications.prospectId, other.id))).toHaveLength(0);
  });

  it("links one resident per user and unit; a later coverage links the new policy and keeps the deposit link", async () => {
    const db = await getDb();
    const [first, second] = [await insertBarePolicy(), await insertBarePolicy()];
    const [policy] = await db.select().from(policies).where(eq(policies.id, first));
    const user = await ensureRenterUser(db, `${unique("link")}@example.com`);
    const link = { userId: user.id, ownerId: policy.ownerId, unitId: policy.unitId };
    const [deposit] = await db
      .insert(cashDeposits)
      .values({ ownerId: policy.ownerId, unitId: policy.unitId, amountCents: 150000 })
      .returning({ id: cashDeposits.id });
    const a = await linkResident(db, { ...link, cashDepositId: deposit.id });
    const b = await linkResident(db, { ...link, policyId: first });
    // A later policy on the same unit (a bare row of another owner stands in for it).
    const c = await linkResident(db, { ...link, policyId: second });
    expect([b.id, c.id]).toEqual([a.id, a.id]);
    expect(b).toMatchObject({ policyId: first, cashDepositId: deposit.id });
    expect(c).toMatchObject({ policyId: second, cashDepositId: deposit.id });
    expect(await db.select().from(residents).where(eq(residents.userId, user.id))).toHaveLength(1);
  });
});
