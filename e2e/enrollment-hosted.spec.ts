import { expect, test } from "@playwright/test";
import {
  admin,
  choose,
  createActiveOwner,
  createReadyProspect,
  enrollToCompletion,
  OPTIONS,
  type Partner,
  partnerApi,
  pay,
  result,
  startHttp,
  step,
  submitDetails,
  unique,
} from "./enrollment-helpers";

// decisions §10 Redirect: the hosted (expedited) flow follows `redirect_url` at a terminal state only
// to one of the source's redirect domains (staging: `localhost` over HTTP too), appending
// `status=<state>`; anything else leaves the renter on the result page. And the guarantee product.

let api: Partner;
let partnerSite: Awaited<ReturnType<typeof startHttp>>;
let source: string;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  api = await partnerApi();
  partnerSite = await startHttp((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><title>Partner</title><h1>Back at the partner</h1>");
  });
  // A hosted source of the demo partner whose redirects may go to localhost (staging only).
  source = `e2e_hosted_${unique()}`;
  admin("source", "create", "--code", source, "--client-id", api.demo.client_id, "--flow", "expedited", "--redirect-domain", "localhost");
});

test.afterAll(async () => {
  await Promise.all([partnerSite?.close(), api?.dispose()]);
});

test("hosted flow with an allowed redirect_url: the browser ends at it with status=completed", async ({ page }) => {
  const prospect = await createReadyProspect(api, { source });
  expect(prospect.hosted).toContain("/enroll/expedited/");
  const back = `http://localhost:${new URL(partnerSite.origin).port}/done?ref=${prospect.id}`;
  await page.goto(`${prospect.hosted}&redirect_url=${encodeURIComponent(back)}`);
  await submitDetails(page);
  await choose(page, OPTIONS.sdiUpfront);
  await pay(page);
  await expect(page.getByRole("heading", { name: "Back at the partner" })).toBeVisible({ timeout: 20_000 });
  const landed = new URL(page.url());
  expect(`${landed.origin}${landed.pathname}`).toBe(`http://localhost:${new URL(partnerSite.origin).port}/done`);
  expect(landed.searchParams.get("ref")).toBe(prospect.id);
  expect(landed.searchParams.get("status")).toBe("completed");
});

test("hosted flow with a redirect_url outside the source's domains: the renter stays on the result page", async ({ page }) => {
  const prospect = await createReadyProspect(api, { source });
  const requested: string[] = [];
  page.on("request", (req) => requested.push(req.url()));
  await page.goto(`${prospect.hosted}&redirect_url=${encodeURIComponent("https://evil.example/steal")}`);
  const done = await enrollToCompletion(page);
  await expect(done.getByRole("heading", { name: "You're covered" })).toBeVisible();
  // Still there a moment later, on the enrollment host, and nothing was asked of the foreign host.
  await page.waitForTimeout(1_000);
  await expect(done).toBeVisible();
  expect(new URL(page.url()).origin).toBe(new URL(prospect.hosted).origin);
  expect(requested.filter((url) => new URL(url).hostname.endsWith("evil.example"))).toEqual([]);
});

test("the guarantee product: a guarantor-coverage prospect is offered the lease guarantee, pays upfront, completes", async ({ page }) => {
  // An owner of this test whose buildings carry the guarantee (spec Property rules, Guarantee on
  // creation: buildings created while the owner is guarantor-coverage capable).
  const owner = await createActiveOwner(api, { guarantor_coverage_capable: true });
  const prospect = await createReadyProspect(api, { owner, property: "b1", unit: "u1", extra: { guarantor_coverage: true } });
  await page.goto(prospect.hosted);
  await submitDetails(page);
  const choosing = step(page, "choose");
  await expect(choosing).toBeVisible({ timeout: 20_000 });
  // Only the guarantee is offered on a guarantee prospect (spec Prospect status rule 3).
  await expect(choosing.getByRole("radio", { name: /^Deposit insurance|^Cash deposit/ })).toHaveCount(0);
  await choose(page, OPTIONS.guaranteeUpfront);
  await pay(page);
  const done = result(page, "completed");
  await expect(done).toBeVisible({ timeout: 20_000 });
  await expect(done.getByTestId("policy-number")).not.toBeEmpty();
});
