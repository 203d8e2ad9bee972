import { expect, test } from "@playwright/test";
import {
  admin,
  CARDS,
  choose,
  createReadyProspect,
  enrollToCompletion,
  OPTIONS,
  openInParent,
  type Partner,
  partnerApi,
  pay,
  result,
  type Scope,
  signatureIsValid,
  startParentPortal,
  startWebhookReceiver,
  step,
  submitDetails,
} from "./enrollment-helpers";

// decisions §10: the embedded flow, framed by a partner portal on another origin (127.0.0.1, while
// the enrollment host is localhost), posting its terminal state to the parent; `policy.created`
// delivered to the owner's HTTPS endpoint.

let api: Partner;
let parent: Awaited<ReturnType<typeof startParentPortal>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let endpointId: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  api = await partnerApi();
  parent = await startParentPortal();
  receiver = await startWebhookReceiver();
  // The operator allowlists the portal's origin (staging accepts loopback HTTP, decisions §10 Framing).
  admin("frame-origin", "add", "--origin", parent.origin);
  const created = await api.post(`/partners/${api.demo.owner_slug}/webhooks/endpoints`, {
    endpoint: { name: `e2e ${Date.now()}`, destination_url: receiver.url, events: ["policy.created"] },
  });
  endpointId = created.endpoint.id;
});

test.afterAll(async () => {
  if (endpointId) await api.delete(`/partners/${api.demo.owner_slug}/webhooks/endpoints/${endpointId}`);
  await Promise.all([parent?.close(), receiver?.close(), api?.dispose()]);
});

/** Walks to the terminal state the renter reaches: choose/pay with a card that pays when offered. */
async function walkToResult(scope: Scope) {
  await submitDetails(scope);
  const settled = scope.locator('main[data-step="result"], main[data-step="choose"]');
  await expect(settled).toBeVisible({ timeout: 20_000 });
  if ((await settled.getAttribute("data-step")) === "choose") {
    await choose(scope, OPTIONS.sdiUpfront);
    await pay(scope);
  }
  await expect(step(scope, "result")).toBeVisible({ timeout: 20_000 });
}

test("framed by an allowlisted portal: details → quote → choose → pay → completed, posted to the parent, policy.created delivered", async ({ page }) => {
  const prospect = await createReadyProspect(api);
  const { frame, posted } = await openInParent(page, parent.origin, prospect.embedded);

  const done = await enrollToCompletion(frame, OPTIONS.sdiUpfront);
  await expect(done.getByRole("heading", { name: "You're covered" })).toBeVisible();
  const policyNumber = ((await done.getByTestId("policy-number").textContent()) ?? "").trim();
  expect(policyNumber).not.toBe("");

  // spec Enrollment flow: a plain string, from {enrollment_host}, to this parent only.
  await expect.poll(posted, { timeout: 10_000 }).not.toEqual([]);
  await page.waitForTimeout(1_000); // a second post (e.g. on the result page's self-refresh) would show by now
  expect(await posted()).toEqual([{ data: "completed", origin: new URL(prospect.embedded).origin }]);

  // The webhook is the fact: delivered over HTTPS, signed with the owner's signing secret.
  await expect
    .poll(() => receiver.received.filter((r) => r.body.includes(`"source_prospect_id":"${prospect.id}"`)).length, { timeout: 20_000 })
    .toBeGreaterThan(0);
  const delivery = receiver.received.find((r) => r.body.includes(`"source_prospect_id":"${prospect.id}"`));
  expect(delivery?.headers["x-webhook-event"]).toBe("policy.created");
  expect(delivery?.body).toContain(`"policy_number":"${policyNumber}"`);
  const { signing_secret } = admin("owner", "secret", "--owner", api.demo.owner_slug) as { signing_secret: string };
  expect(signatureIsValid(delivery?.headers["x-webhook-signature"] as string, signing_secret, delivery?.body ?? "")).toBe(true);
});

for (const state of ["declined", "blocked"] as const) {
  test(`an email ending in +${state === "declined" ? "decline" : "blocked"} ends ${state}, and the parent is told "${state}"`, async ({ page }) => {
    const tag = state === "declined" ? "decline" : "blocked";
    const prospect = await createReadyProspect(api, { email: `rita.${Date.now()}+${tag}@example.com` });
    const { frame, posted } = await openInParent(page, parent.origin, prospect.embedded);
    await walkToResult(frame);
    const ended = result(frame, state);
    await expect(ended).toBeVisible();
    await expect(ended.getByRole("heading", { name: state === "declined" ? "We couldn't offer coverage" : "We can't continue your enrollment" })).toBeVisible();
    await expect.poll(posted, { timeout: 10_000 }).toEqual([{ data: state, origin: new URL(prospect.embedded).origin }]);
  });
}

test("resume: another browser (new context) opening the same link lands on the step reached, with what was chosen", async ({ page, browser }) => {
  const prospect = await createReadyProspect(api);
  await page.goto(prospect.embedded);
  await submitDetails(page);
  await expect(step(page, "choose")).toBeVisible({ timeout: 20_000 });

  const other = await browser.newContext();
  try {
    const elsewhere = await other.newPage();
    await elsewhere.goto(prospect.embedded);
    await expect(step(elsewhere, "choose")).toBeVisible();
    await expect(step(elsewhere, "details")).toHaveCount(0);
    // Going on from the second device, the first one follows on reload.
    await choose(elsewhere, OPTIONS.sdiMonthly);
    await page.reload();
    await expect(step(page, "pay")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Pay \$/ })).toBeVisible();
  } finally {
    await other.close();
  }
});

test("a declined card shows an alert and stays on pay; a card that pays then completes", async ({ page }) => {
  const prospect = await createReadyProspect(api);
  await page.goto(prospect.embedded);
  await submitDetails(page);
  await choose(page, OPTIONS.sdiUpfront);
  await pay(page, CARDS.declined);
  const paying = step(page, "pay");
  await expect(paying.getByRole("alert")).toContainText(/declined/i);
  await expect(paying).toBeVisible();
  await pay(page, CARDS.pays);
  await expect(result(page, "completed")).toBeVisible({ timeout: 20_000 });
});

test("a completed enrollment's result page offers its policy documents, a zip archive", async ({ page, request }) => {
  const prospect = await createReadyProspect(api);
  await page.goto(prospect.embedded);
  await enrollToCompletion(page);
  // The archive is built by a job; the result page refreshes itself until the link appears.
  const link = page.getByRole("link", { name: "Download your policy documents" });
  await expect(link).toBeVisible({ timeout: 30_000 });
  const href = await link.getAttribute("href");
  expect(href).toBeTruthy();
  const archive = await request.get(new URL(href ?? "", page.url()).toString());
  expect(archive.status()).toBe(200);
  expect(archive.headers()["content-type"]).toContain("application/zip");
  const bytes = await archive.body();
  expect(bytes.subarray(0, 2).toString("latin1")).toBe("PK");

  // Reopening a finished enrollment shows its result (decisions §10 Resume).
  await page.goto(prospect.embedded);
  await expect(result(page, "completed")).toBeVisible();
});
