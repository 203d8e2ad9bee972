import { describe, expect, it } from "vitest";
import { getDb } from "../../../server/db/client";
import { runDueJobs } from "../../../test/jobs";
import { closeGatesForMerge } from "../../owners/merge/gate";
import { enrollmentPartnersOfThisFile } from "../../policies/policy-test-helpers";
import type { ResultView } from "./contract";
import { applicationsOf, card, DETAILS, okView, renter } from "./flow-test-helpers";
import { chooseProduct, payEnrollment, submitDetails } from "./service";

const partner = enrollmentPartnersOfThisFile();

/**
 * The enrollment flow's writes and its underwriting job enter the owner's merge gate
 * (owners/merge/gate.ts) as partner writes do: while a merge of the owner holds the gate, they
 * wait, and they go on once it is released, reading the records as the merge left them.
 */
async function holdMergeGate(ownerId: number): Promise<{ release: () => Promise<void> }> {
  const db = await getDb();
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held!: () => void;
  const holding = new Promise<void>((resolve) => {
    held = resolve;
  });
  const done = db.transaction(async (tx) => {
    await closeGatesForMerge(tx, [ownerId]);
    held();
    await released;
  });
  await holding;
  return {
    release: async () => {
      release();
      await done;
    },
  };
}

/** Whether `work` is still waiting after `ms`, then its result once `gate` is released. */
async function waitsFor<T>(gate: { release: () => Promise<void> }, work: () => Promise<T>, ms = 400): Promise<{ waited: boolean; result: T }> {
  let finished = false;
  const running = work().finally(() => {
    finished = true;
  });
  await new Promise((resolve) => setTimeout(resolve, ms));
  const waited = !finished;
  await gate.release();
  return { waited, result: await running };
}

describe("enrollment and the merge gate", () => {
  it("details, underwriting, choice and payment each wait for a merge of their owner, then go on", async () => {
    const p = await partner();
    const { prospect, link } = await renter(p, "gate-flow");

    const details = await waitsFor(await holdMergeGate(p.owner.id), () => submitDetails(link, DETAILS));
    expect(details.waited).toBe(true);
    expect(okView(details.result).step).toBe("quote");

    const underwriting = await waitsFor(await holdMergeGate(p.owner.id), () => runDueJobs());
    expect(underwriting.waited).toBe(true);
    expect((await applicationsOf(prospect))[0].outcome).toBe("quoted");

    const choice = await waitsFor(await holdMergeGate(p.owner.id), () =>
      chooseProduct(link, { productType: "security_deposit_insurance", cadence: "upfront" }),
    );
    expect(choice.waited).toBe(true);
    expect(okView(choice.result).step).toBe("pay");

    const payment = await waitsFor(await holdMergeGate(p.owner.id), () => payEnrollment(link, card()));
    expect(payment.waited).toBe(true);
    expect((okView(payment.result) as ResultView).state).toBe("completed");
  });
});
