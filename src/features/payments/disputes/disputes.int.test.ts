import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { admin, adminRaw } from "../../../cli/admin-test-helpers";
import { webMounts } from "../../../composition/gateways";
import { resetConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { createFrontServer } from "../../../server/http/front-server";
import { auditLog } from "../../audit/audit-log.table";
import { applications } from "../../enrollment/applications/applications.table";
import { enrollmentPartnersOfThisFile } from "../../policies/policy-test-helpers";
import { paidPolicy } from "../../policies/refunds/refund-test-helpers";
import { disputesOfPolicy, recordDispute } from "./disputes";

const partner = enrollmentPartnersOfThisFile();
const TOKEN = "disputes-metrics-token-0123456789";
let base = "";
let close: () => Promise<void> = async () => {};

beforeAll(async () => {
  process.env.METRICS_TOKEN = TOKEN;
  resetConfig();
  const server = createFrontServer({
    mounts: webMounts,
    next: async (_req, res) => {
      res.writeHead(404).end();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => new Promise((done) => server.close(() => done()));
});
afterAll(async () => {
  delete process.env.METRICS_TOKEN;
  resetConfig();
  await close();
});

async function disputeCount(outcome: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
  const match = text.match(new RegExp(`^pis_payment_disputes_total\\{outcome="${outcome}"\\} (\\d+)`, "m"));
  return match ? Number(match[1]) : 0;
}

async function paidWithCharge(id: string) {
  const p = await partner();
  const policy = await paidPolicy(p, id);
  const [application] = await (await getDb())
    .select({ chargeId: applications.paymentChargeId })
    .from(applications)
    .where(eq(applications.id, policy.applicationId ?? 0));
  return { policy, chargeId: application.chargeId as string };
}

async function auditOf(policyId: number) {
  return (await getDb())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "policy"), eq(auditLog.subjectId, String(policyId))))
    .orderBy(auditLog.id);
}

const state = (chargeId: string, disputeId: string, status: string) => ({
  processor: "simulated",
  disputeId,
  chargeId,
  intentId: null,
  amountCents: 5000,
  reason: "fraudulent",
  status,
});

describe("disputes (decisions §18 Disputes; docs/decisions.md, Refunds, disputes and reconciliation)", () => {
  it("created then closed: flags the policy, one audit row each, counted once each; a repeated event changes nothing", async () => {
    const { policy, chargeId } = await paidWithCharge("dsp-1");
    const opened = await disputeCount("opened");
    const lost = await disputeCount("lost");
    const db = await getDb();

    await recordDispute(db, state(chargeId, "dp_a1", "needs_response"));
    await recordDispute(db, state(chargeId, "dp_a1", "needs_response"));
    expect(await disputesOfPolicy(db, policy.id)).toMatchObject([{ processorDisputeId: "dp_a1", status: "needs_response", closedAt: null, amountCents: 5000 }]);
    expect(await disputeCount("opened")).toBe(opened + 1);

    await recordDispute(db, state(chargeId, "dp_a1", "lost"));
    await recordDispute(db, state(chargeId, "dp_a1", "lost"));
    const [closed] = await disputesOfPolicy(db, policy.id);
    expect(closed).toMatchObject({ status: "lost", reason: "fraudulent" });
    expect(closed.closedAt).not.toBeNull();
    expect(await disputeCount("lost")).toBe(lost + 1);
    expect((await auditOf(policy.id)).map((row) => [row.action, row.actorLabel, (row.after as { status: string }).status])).toEqual([
      ["payments.dispute_opened", "system:simulated_webhook", "needs_response"],
      ["payments.dispute_closed", "system:simulated_webhook", "lost"],
    ]);
  });

  it("closed arriving before created: opened closed, and the late `needs_response` never reopens it", async () => {
    const { policy, chargeId } = await paidWithCharge("dsp-2");
    const db = await getDb();
    await recordDispute(db, state(chargeId, "dp_b1", "won"));
    await recordDispute(db, state(chargeId, "dp_b1", "needs_response"));
    const [row] = await disputesOfPolicy(db, policy.id);
    expect(row.status).toBe("won");
    expect(row.closedAt).not.toBeNull();
    expect((await auditOf(policy.id)).map((a) => a.action)).toEqual(["payments.dispute_opened", "payments.dispute_closed"]);
  });

  it("policy show prints the policy's payments, refunds and disputes", async () => {
    const { policy, chargeId } = await paidWithCharge("dsp-3");
    await recordDispute(await getDb(), state(chargeId, "dp_c1", "under_review"));
    await admin("policy", "cancel", "--policy", policy.policyNumber);
    const shown = await admin("policy", "show", "--policy", policy.policyNumber);
    expect(shown).toMatchObject({ code: 0, err: "" });
    expect(shown.out).toMatchObject({
      policy: { id: policy.id, policy_number: policy.policyNumber, status: "canceled", cadence: "upfront", premium_cents: policy.premiumCents },
      payments: [
        {
          id: chargeId,
          kind: "enrollment",
          status: "succeeded",
          processor: "simulated",
          processor_id: chargeId,
          dashboard_url: null,
          card: { brand: "visa", last4: "4242" },
        },
      ],
      refunds: [{ status: "pending", processor: "simulated", processor_refund_id: null, failure_reason: null }],
      disputes: [{ processor_dispute_id: "dp_c1", amount_cents: 5000, reason: "fraudulent", status: "under_review", open: true, closed_at: null }],
    });
    expect(JSON.stringify(shown.out)).not.toMatch(/4242 ?4242 ?4242/);
    const missing = await admin("policy", "show", "--policy", "PIS-1900-000001");
    expect(missing).toMatchObject({ code: 1, err: expect.stringContaining("No policy PIS-1900-000001") });
    const usage = await adminRaw("policy", "show");
    expect(usage).toMatchObject({ code: 2, stdout: "", err: expect.stringContaining("--policy is required") });
  });
});
