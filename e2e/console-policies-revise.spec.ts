import { expect, test } from "@playwright/test";
import { unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";
import { screenshots, signInAsOperator } from "./console-helpers";
import {
  admin,
  createActiveOwner,
  createReadyProspect,
  enrollToCompletion,
  partnerApi,
  type Received,
  signatureIsValid,
  startWebhookReceiver,
} from "./enrollment-helpers";

// docs/decisions.md, "Policies: revisions and cancellation": a policy issued through the real renter flow, revised in the console; partners
// hear policy.updated and policy.documents_updated (spec "Ordering and retries": no order between
// them), signed; the new archive's declarations show the new coverage; the old link keeps the old.

type Body = { event: string; data: { insurance_policy: Record<string, unknown> } };

const parse = (r: Received) => JSON.parse(r.body) as Body;

/** The declarations PDF's text inside the archive at `url`. */
async function declarationsAt(url: string): Promise<string> {
  const answer = await fetch(url);
  expect(answer.status, url).toBe(200);
  const files = unzipSync(new Uint8Array(await answer.arrayBuffer()));
  const name = Object.keys(files).find((file) => file.endsWith("declarations.pdf"));
  expect(name, Object.keys(files).join(", ")).toBeTruthy();
  const { text } = await extractText(await getDocumentProxy(files[name as string]), { mergePages: true });
  return text.replace(/\s+/g, " ");
}

test("an operator revises a policy's coverage: policy.updated and policy.documents_updated reach the partner, the new archive shows the new amount", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const api = await partnerApi();
  const receiver = await startWebhookReceiver();
  try {
    const owner = await createActiveOwner(api);
    await api.post(`/partners/${owner}/webhooks/endpoints`, {
      endpoint: {
        name: "e2e policy events",
        destination_url: receiver.url,
        events: ["policy.created", "policy.updated", "policy.canceled", "policy.documents_updated"],
      },
    });
    const { signing_secret: secret } = admin("owner", "secret", "--owner", owner) as { signing_secret: string };

    // The renter enrolls through the hosted flow and pays: a policy and its first archive.
    const prospect = await createReadyProspect(api, { owner, property: "b1", unit: "u1" });
    await page.goto(prospect.hosted);
    await enrollToCompletion(page);
    const bodies = () => receiver.received.map(parse);
    const ofEvent = (event: string) => bodies().filter((b) => b.event === event);
    await expect.poll(() => ofEvent("policy.documents_updated").length, { timeout: 30_000 }).toBe(1);
    const first = ofEvent("policy.documents_updated")[0].data.insurance_policy;
    const oldUrl = String(first.policy_url);
    const oldAmount = Number(first.coverage_amount_cents);
    const newAmount = oldAmount + 25_000;
    const dollars = (cents: number) => `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
    expect(await declarationsAt(oldUrl)).toContain(dollars(oldAmount));

    // The operator opens the policy from admin_policy_url and revises the coverage amount.
    await signInAsOperator(page);
    await page.goto(String(first.admin_policy_url));
    const main = page.getByRole("main");
    await expect(main.getByRole("heading", { name: `Policy ${first.policy_number}` })).toBeVisible();
    const revise = main.getByRole("form", { name: "Revise" });
    // A bad amount is refused beside its field before anything is sent.
    await revise.getByLabel("Coverage amount (USD)").fill("lots");
    await revise.getByRole("button", { name: "Save revision" }).click();
    await expect(revise.getByText("Enter an amount in dollars")).toBeVisible();
    await revise.getByLabel("Coverage amount (USD)").fill(String(newAmount / 100));
    await revise.getByLabel("Note (internal)").fill("Landlord raised the deposit");
    await revise.getByRole("button", { name: "Save revision" }).click();
    await expect(main.getByText("Policy revised.")).toBeVisible();
    await expect(main.getByRole("region", { name: "Revisions", exact: true })).toContainText(`Coverage: ${dollars(oldAmount)} → ${dollars(newAmount)}`);
    await expect(main.getByRole("region", { name: "Revisions", exact: true })).toContainText("Landlord raised the deposit");

    // Both events arrive (in either order), signed with the owner's secret, carrying the new state.
    await expect.poll(() => ofEvent("policy.updated").length, { timeout: 30_000 }).toBe(1);
    await expect.poll(() => ofEvent("policy.documents_updated").length, { timeout: 30_000 }).toBe(2);
    for (const r of receiver.received) expect(signatureIsValid(r.headers["x-webhook-signature"] as string, secret, r.body), r.body).toBe(true);
    const updated = ofEvent("policy.updated")[0].data.insurance_policy;
    expect(updated).toMatchObject({
      policy_number: first.policy_number,
      coverage_amount_cents: newAmount,
      renewal_eligibility_status: "eligible",
      blocking_reasons: [],
    });
    expect(updated).not.toHaveProperty("policy_url");
    const regenerated = ofEvent("policy.documents_updated").find((b) => b.data.insurance_policy.policy_url !== oldUrl)?.data.insurance_policy;
    expect(regenerated?.coverage_amount_cents).toBe(newAmount);
    const newUrl = String(regenerated?.policy_url);
    expect(newUrl).not.toBe(oldUrl);

    // The new archive shows the new coverage; the old link still serves the old content.
    expect(await declarationsAt(newUrl)).toContain(dollars(newAmount));
    const old = await declarationsAt(oldUrl);
    expect(old).toContain(dollars(oldAmount));
    expect(old).not.toContain(dollars(newAmount));

    // The page lists both archive versions and the deliveries about the policy.
    await page.reload();
    await expect(main.getByRole("region", { name: "Documents", exact: true }).getByRole("link")).toHaveCount(2);
    await expect(main.getByRole("region", { name: "Deliveries", exact: true })).toContainText("policy.updated");
    await screenshots(page, "console-policy-revised");

    // Cancel, confirmed, with an internal reason: policy.canceled without it.
    await main.getByRole("button", { name: "Cancel the policy…" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByLabel("Reason (internal)").fill("Renter moved out early");
    await screenshots(page, "console-policy-cancel-dialog");
    await dialog.getByRole("button", { name: "Cancel the policy" }).click();
    await expect(dialog).toBeHidden();
    await expect(main.getByRole("region", { name: "Status history", exact: true })).toContainText("Renter moved out early");
    await expect(main.getByText("it can no longer be revised or canceled")).toBeVisible();
    await expect.poll(() => ofEvent("policy.canceled").length, { timeout: 30_000 }).toBe(1);
    const canceled = ofEvent("policy.canceled")[0];
    expect(canceled.data.insurance_policy).toMatchObject({ status: "canceled", renewal_eligibility_status: "blocked" });
    expect(JSON.stringify(canceled)).not.toContain("Renter moved out early");
    await screenshots(page, "console-policy-canceled");

    // The search filters by owner and product, in the URL.
    await page.goto(`/console/policies?owner=${owner}&product=security_deposit_insurance`);
    const rows = page.getByRole("region", { name: "Policies", exact: true }).getByRole("row");
    await expect(rows).toHaveCount(2); // header + the one policy
    await expect(rows.nth(1)).toContainText(String(first.policy_number));
    await expect(rows.nth(1)).toContainText("canceled");
    await screenshots(page, "console-policies-search");
  } finally {
    await api.dispose();
    await receiver.close();
  }
});
