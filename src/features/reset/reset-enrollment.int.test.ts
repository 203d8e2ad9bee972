import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/documents/[file]/route";
import { getDb } from "../../server/db/client";
import { newClient, unique } from "../../test/factories";
import { call } from "../../test/http";
import { runDueJobs } from "../../test/jobs";
import { grantOwnerBySlug } from "../auth/clients";
import { applications } from "../enrollment/applications/applications.table";
import { recordUnderwriting, startApplication, submitApplication } from "../enrollment/applications/service";
import { residents } from "../enrollment/renters/residents.table";
import { renterUsers } from "../enrollment/renters/users.table";
import { recordCashDeposit } from "../policies/cash-deposits";
import { archivesOfPolicy } from "../policies/documents/storage";
import { issuePolicy } from "../policies/issue";
import { cashDeposits, policies } from "../policies/policies.table";
import { defaultOutcome, enrollmentPartnersOfThisFile, prospectRow } from "../policies/policy-test-helpers";
import { completeProspect } from "../prospects/prospect-test-helpers";
import type { Prospect } from "../prospects/prospects.table";
import { prospects } from "../prospects/prospects.table";
import { createSource } from "../prospects/sources";

const partner = enrollmentPartnersOfThisFile();
const PAID_AT = new Date("2026-11-24T15:00:00Z");
type Choice = Parameters<typeof submitApplication>[2];

/** Start, quote (default rules) and submit `choice` for a ready prospect; then pay for it. */
async function enroll(prospect: Prospect, choice: Choice | null) {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const { application, created } = await startApplication(tx, prospect);
    if (!choice) return { application, created };
    await recordUnderwriting(tx, application, defaultOutcome(prospect));
    await submitApplication(tx, application, choice);
    if (choice.productType === "cash_deposit") return { application, created, cashDeposit: (await recordCashDeposit(tx, application)).cashDeposit };
    return { application, created, policy: (await issuePolicy(tx, application, { paidAt: PAID_AT })).policy };
  });
}

const resetPath = (email: string, ownerSlug: string) => `/api/residents/reset?email=${encodeURIComponent(email)}&owner_slug=${ownerSlug}`;

async function fetchArchive(url: string): Promise<number> {
  const file = url.split("/").pop() as string;
  return (await GET(new Request(url), { params: Promise.resolve({ file }) })).status;
}

describe("reset of an enrolled renter (spec Reset rule; decisions §10 Renters)", () => {
  it("deletes the user, prospects, applications, policies with their archives, cash deposits and residents, answers their ids, and is idempotent", async () => {
    const p = await partner();
    const email = `${unique("renter")}@example.com`;
    const insured = await p.ready("rs-1", { email });
    const deposit = await p.ready("rs-2", { email: email.toUpperCase() });
    const bystander = await p.ready("rs-3", { email: `${unique("other")}@example.com` });
    const withPolicy = await enroll(insured, { productType: "security_deposit_insurance", cadence: "upfront" });
    const withDeposit = await enroll(deposit, { productType: "cash_deposit" });
    const other = await enroll(bystander, { productType: "security_deposit_insurance", cadence: "monthly" });
    await runDueJobs(); // builds both archives
    const db = await getDb();
    const [archive] = await archivesOfPolicy(db, withPolicy.policy?.id ?? 0);
    const [otherArchive] = await archivesOfPolicy(db, other.policy?.id ?? 0);
    expect(await fetchArchive(archive.url)).toBe(200);

    // One user for the email (keyed lower-cased), one resident for the unit linking both coverages.
    const users = await db.select().from(renterUsers).where(eq(renterUsers.email, email));
    expect(users).toHaveLength(1);
    expect([withPolicy.application.userId, withDeposit.application.userId]).toEqual([users[0].id, users[0].id]);
    const [resident] = await db.select().from(residents).where(eq(residents.userId, users[0].id));
    expect(resident).toMatchObject({
      ownerId: p.owner.id,
      unitId: insured.unitId,
      policyId: withPolicy.policy?.id,
      cashDepositId: withDeposit.cashDeposit?.id,
    });

    const answer = await call("DELETE", resetPath(email, p.owner.slug), { token: p.token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status_code: 200,
      user_ids: [users[0].id],
      prospect_ids: [insured.id, deposit.id].sort((a, b) => a - b),
      policy_ids: [withPolicy.policy?.id],
      resident_ids: [resident.id],
    });

    const gone = async () => ({
      prospects: await db
        .select()
        .from(prospects)
        .where(inArray(prospects.id, [insured.id, deposit.id])),
      applications: await db
        .select()
        .from(applications)
        .where(inArray(applications.id, [withPolicy.application.id, withDeposit.application.id])),
      policies: await db
        .select()
        .from(policies)
        .where(eq(policies.id, withPolicy.policy?.id ?? 0)),
      deposits: await db
        .select()
        .from(cashDeposits)
        .where(eq(cashDeposits.id, withDeposit.cashDeposit?.id ?? 0)),
      residents: await db.select().from(residents).where(eq(residents.id, resident.id)),
      users: await db.select().from(renterUsers).where(eq(renterUsers.id, users[0].id)),
      archives: await archivesOfPolicy(db, withPolicy.policy?.id ?? 0),
    });
    expect(Object.values(await gone()).map((rows) => rows.length)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(await fetchArchive(archive.url)).toBe(404);

    // Another renter of the same partner and owner is untouched, archive included.
    expect(
      await db
        .select({ id: policies.id })
        .from(policies)
        .where(eq(policies.id, other.policy?.id ?? 0)),
    ).toHaveLength(1);
    expect(await db.select({ id: prospects.id }).from(prospects).where(eq(prospects.id, bystander.id))).toHaveLength(1);
    expect(await fetchArchive(otherArchive.url)).toBe(200);

    const again = await call("DELETE", resetPath(email, p.owner.slug), { token: p.token });
    expect(again.body).toEqual({ status_code: 200, user_ids: [], prospect_ids: [], policy_ids: [], resident_ids: [] });
  });

  it("lets the same email enroll again: the re-sent prospect gets a fresh application, user and resident", async () => {
    const p = await partner();
    const email = `${unique("again")}@example.com`;
    const first = await enroll(await p.ready("ra-1", { email }), { productType: "security_deposit_insurance", cadence: "upfront" });
    await runDueJobs();
    expect((await call("DELETE", resetPath(email, p.owner.slug), { token: p.token })).status).toBe(200);

    const prospect = await p.ready("ra-1", { email });
    const second = await enroll(prospect, { productType: "security_deposit_insurance", cadence: "upfront" });
    expect(second.created).toBe(true);
    expect(second.application.id).not.toBe(first.application.id);
    expect(second.application.userId).not.toBe(first.application.userId);
    expect(second.application.step).toBe("details");
    expect(second.policy?.policyNumber).not.toBe(first.policy?.policyNumber);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(residents)
        .where(eq(residents.policyId, second.policy?.id ?? 0)),
    ).toHaveLength(1);
  });

  it("clears only what the caller reaches: another partner's records, under the same owner or another, stay, and keep the user", async () => {
    const p = await partner();
    const email = `${unique("shared")}@example.com`;
    // A second partner on the same owner, with its own source, and its own application for the email.
    const db = await getDb();
    const neighbour = await newClient();
    await grantOwnerBySlug(db, neighbour.clientId, p.owner.slug);
    const neighbourSource = unique("nsrc").replace("-", "_");
    await createSource(db, { code: neighbourSource, clientId: neighbour.clientId });
    const neighbourToken = await neighbour.token();
    await call("POST", `${p.base}/prospects`, { token: neighbourToken, body: { prospect: completeProspect(neighbourSource, "nb-1", { email }) } });
    await runDueJobs();
    const neighbourApp = await enroll(await prospectRow(p.owner.id, "nb-1"), null);
    // Another partner's owner where the same renter holds a policy.
    const elsewhere = await partner();
    const elsewherePolicy = await enroll(await elsewhere.ready("el-1", { email }), { productType: "security_deposit_insurance", cadence: "upfront" });
    const mine = await enroll(await p.ready("mi-1", { email }), { productType: "security_deposit_insurance", cadence: "upfront" });
    await runDueJobs();

    const answer = await call("DELETE", resetPath(email, p.owner.slug), { token: p.token });
    expect(answer.body).toMatchObject({ user_ids: [], policy_ids: [mine.policy?.id] });
    expect(await db.select().from(applications).where(eq(applications.id, neighbourApp.application.id))).toHaveLength(1);
    expect(
      await db
        .select()
        .from(policies)
        .where(eq(policies.id, elsewherePolicy.policy?.id ?? 0)),
    ).toHaveLength(1);
    expect(
      await db
        .select()
        .from(residents)
        .where(eq(residents.policyId, elsewherePolicy.policy?.id ?? 0)),
    ).toHaveLength(1);
    expect(await db.select().from(renterUsers).where(eq(renterUsers.email, email))).toHaveLength(1);

    // The neighbour clears its own: the user stays for the other owner's resident and policy.
    const neighbours = await call("DELETE", resetPath(email, p.owner.slug), { token: neighbourToken });
    expect(neighbours.body).toMatchObject({ user_ids: [], prospect_ids: [neighbourApp.application.prospectId], policy_ids: [], resident_ids: [] });
    // The last one to clear takes the user with it.
    const last = await call("DELETE", resetPath(email, elsewhere.owner.slug), { token: elsewhere.token });
    expect(last.body).toMatchObject({ user_ids: [elsewherePolicy.application.userId], policy_ids: [elsewherePolicy.policy?.id] });
    expect(await db.select().from(renterUsers).where(eq(renterUsers.email, email))).toHaveLength(0);
  });
});
