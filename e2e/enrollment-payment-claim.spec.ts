import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";
import { FLOW_MESSAGES } from "../src/features/enrollment/flow/messages";
import { connectPostgres } from "../src/server/db/url";
import { screenshots } from "./console-helpers";
import { CARDS, choose, createReadyProspect, OPTIONS, type Partner, partnerApi, pay, result, step, submitDetails } from "./enrollment-helpers";

// decisions §10 Payment, one claim per application: a payment whose outcome was never recorded (a
// crash after the claim) keeps the chosen option, says so on the pay step, and the renter's next
// payment replays the claim's key, so the processor charges once.

let api: Partner;
test.beforeAll(async () => {
  api = await partnerApi();
});
test.afterAll(async () => {
  await api?.dispose();
});

/** The e2e server's database: the one thing no screen can do is leave a payment unresolved. */
function database() {
  const instance = JSON.parse(fs.readFileSync(path.join(E2E_DATA_DIR, "postgres.json"), "utf8")) as { url: string };
  return connectPostgres(instance.url, { max: 1, onnotice: () => {} });
}

test("an unresolved payment keeps the option, says why, and the next payment replays it: one charge", async ({ page }) => {
  const prospect = await createReadyProspect(api);
  await page.goto(prospect.hosted);
  await submitDetails(page);
  await choose(page, OPTIONS.sdiUpfront);
  const paying = step(page, "pay");
  const payButton = paying.getByRole("button", { name: /^Pay \$\d[\d,]*\.\d{2}$/ });
  await expect(payButton).toBeVisible();
  const amountCents = Math.round(Number(((await payButton.textContent()) ?? "").replace(/[^\d.]/g, "")) * 100);

  // As a web process that died after taking the claim, before the processor answered, leaves it.
  const sql = database();
  const key = `e2e-crashed-${prospect.id}`;
  try {
    const claimed = await sql`
      update applications a set payment_key = ${key}, payment_key_amount_cents = ${amountCents}
      from prospects p where p.id = a.prospect_id and p.source_prospect_id = ${prospect.id} and a.status = 'created'
      returning a.id`;
    expect(claimed).toHaveLength(1);

    // The option is kept while the payment is unresolved, and the renter is told why.
    await paying.getByRole("button", { name: "Change option" }).click();
    const alert = paying.getByRole("alert").filter({ hasText: FLOW_MESSAGES.paymentInProgress });
    await expect(alert).toBeVisible();
    await expect(step(page, "pay")).toBeVisible();
    await screenshots(page, "enrollment-payment-in-progress");

    // Paying finishes it, under the claim's key: one charge.
    await pay(page, CARDS.pays);
    await expect(result(page, "completed")).toBeVisible({ timeout: 20_000 });
    const charges = await sql`
      select idempotency_key, status from payment_charges where subject = ${`application:pa_${claimed[0].id}`}`;
    expect(charges).toEqual([{ idempotency_key: key, status: "succeeded" }]);
    const [application] = await sql`select payment_key, paid_at from applications where id = ${claimed[0].id}`;
    expect(application.payment_key).toBeNull();
    expect(application.paid_at).not.toBeNull();
  } finally {
    await sql.end();
  }
});
