import { spawnSync } from "node:child_process";
import http from "node:http";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";
import { completeProspectFields } from "../src/test/samples";
import { demoCredentials } from "./helpers";

// decisions §10 Framing: embedded pages answer `frame-ancestors` with the owner's origins ∪ the
// operator's; hosted pages `'none'` and `X-Frame-Options: DENY`. Parents are served from other
// origins (127.0.0.1 ports; the service is on localhost) so Chromium enforces the header for real.
const ALLOWED_PARENT_PORT = 3219;
const FOREIGN_PARENT_PORT = 3218;
const OWNER_ORIGIN = "https://portal.example.com";

type Links = { embedded: string; hosted: string };
let links: Links;
const parents: http.Server[] = [];

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ request }) => {
  const demo = demoCredentials();
  const tokenAnswer = await request.post("/api/token", {
    data: { grant_type: "client_credentials", client_id: demo.client_id, client_secret: demo.client_secret, audience: demo.audience },
  });
  expect(tokenAnswer.status()).toBe(200);
  const headers = { authorization: `Bearer ${(await tokenAnswer.json()).access_token}` };
  const post = async (url: string, data: unknown) => {
    const answer = await request.post(url, { headers, data });
    expect(answer.status(), `${url}: ${await answer.text()}`).toBeLessThan(300);
    return answer.json();
  };

  // An owner of this test's own, with a roster, activated, framed by one HTTPS portal origin.
  const orgId = `frames-org-${Date.now()}`;
  const created = await post("/api/partners/property_owners", { external_org_id: orgId, name: "Framing Test Owner", embedded_frame_ancestors: [OWNER_ORIGIN] });
  const base = `/api/partners/${created.property_owner.owner_slug}`;
  await post(`${base}/bank_accounts`, [{ external_system_id: "ba", display_name: "Main", routing_number: "021000021", account_number: "123456" }]);
  await post(`${base}/properties`, [
    { external_system_id: "b1", building_name: "Building One", address: { line_one: "10 Main St", city: "Austin", state: "TX", zip: "78701" } },
  ]);
  await post(`${base}/units`, [{ external_system_id: "u1", property_external_id: "b1", name: "101" }]);
  await post("/api/partners/property_owners", { external_org_id: orgId, purchase_flow_enabled: true });
  const prospectId = `frames-${Date.now()}`;
  await post(`${base}/prospects`, { prospect: completeProspectFields(demo.source, prospectId) });

  // Eligibility is evaluated by a job: wait for the links.
  await expect
    .poll(
      async () => {
        const answer = await request.get(`${base}/prospects/${demo.source}/${prospectId}`, { headers });
        const prospect = (await answer.json()).prospect;
        if (prospect?.enrollment_url) links = { embedded: prospect.enrollment_url, hosted: prospect.hosted_enrollment_url };
        return prospect?.enrollment_url ?? null;
      },
      { timeout: 30_000 },
    )
    .not.toBeNull();
  expect(links.embedded).toContain("/enroll/embedded/");
  expect(links.hosted).toContain("/enroll/expedited/");

  // The operator allowlists the local parent origin (staging accepts loopback HTTP, decisions §10).
  const admin = spawnSync(
    process.execPath,
    [path.join("node_modules", "tsx", "dist", "cli.mjs"), "scripts/admin.ts", "frame-origin", "add", "--origin", `http://127.0.0.1:${ALLOWED_PARENT_PORT}`],
    { env: { ...process.env, DATA_DIR: E2E_DATA_DIR, LOG_LEVEL: "warn" }, encoding: "utf8" },
  );
  expect(admin.status, admin.stderr).toBe(0);

  for (const port of [ALLOWED_PARENT_PORT, FOREIGN_PARENT_PORT]) {
    const server = http.createServer((req, res) => {
      const src = new URL(req.url ?? "/", "http://parent").searchParams.get("src") ?? "";
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><title>Parent portal</title><h1>Parent portal</h1><iframe title="enrollment" src="${src.replace(/"/g, "&quot;")}"></iframe>`);
    });
    await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
    parents.push(server);
  }
});

test.afterAll(async () => {
  await Promise.all(parents.map((server) => new Promise((resolve) => server.close(resolve))));
});

test("embedded links list the owner's and the operator's origins; hosted links forbid framing", async ({ request }) => {
  const embedded = await request.get(links.embedded);
  expect(embedded.status()).toBe(200);
  const csp = embedded.headers()["content-security-policy"];
  expect(csp).toMatch(/^frame-ancestors /);
  const listed = csp.replace("frame-ancestors ", "").split(" ");
  expect(listed).toEqual(expect.arrayContaining([OWNER_ORIGIN, `http://127.0.0.1:${ALLOWED_PARENT_PORT}`]));
  expect(listed).toEqual([...listed].sort());
  for (const source of listed) expect(source).toMatch(/^https?:\/\/[a-z0-9.-]+(:\d+)?$/);
  expect(embedded.headers()["x-frame-options"]).toBeUndefined();

  const hosted = await request.get(links.hosted);
  expect(hosted.status()).toBe(200);
  expect(hosted.headers()["content-security-policy"]).toBe("frame-ancestors 'none'");
  expect(hosted.headers()["x-frame-options"]).toBe("DENY");
});

test("a link failing its signature answers 404 with a clear page, still with framing headers", async ({ page }) => {
  const forged = links.hosted.replace(/sig=[^&]+/, "sig=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  const answer = await page.goto(forged);
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This enrollment link is not valid" })).toBeVisible();
  expect(answer?.headers()["x-frame-options"]).toBe("DENY");
});

async function frameFrom(page: Page, port: number, src: string) {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("frame-ancestors")) violations.push(message.text());
  });
  await page.goto(`http://127.0.0.1:${port}/?src=${encodeURIComponent(src)}`);
  await expect(page.getByRole("heading", { name: "Parent portal" })).toBeVisible();
  return { violations, frame: page.frameLocator("iframe[title=enrollment]") };
}

test("an allowlisted parent on another origin can frame the embedded link", async ({ page }) => {
  const { frame, violations } = await frameFrom(page, ALLOWED_PARENT_PORT, links.embedded);
  await expect(frame.getByTestId("prospect-status")).toBeVisible();
  await expect(frame.getByRole("heading", { name: /Welcome/ })).toBeVisible();
  expect(violations).toEqual([]);
});

test("a parent that is not allowlisted cannot frame the embedded link, nor anyone the hosted one", async ({ page }) => {
  for (const [port, src] of [
    [FOREIGN_PARENT_PORT, links.embedded],
    [ALLOWED_PARENT_PORT, links.hosted],
  ] as const) {
    const { frame } = await frameFrom(page, port, src);
    // Chromium replaces a refused frame with its own error document: the page never renders in it.
    await page.waitForTimeout(1_000);
    await expect(frame.getByTestId("prospect-status")).toHaveCount(0);
    const child = page.frames().find((f) => f !== page.mainFrame());
    expect(child?.url(), `frame from ${port}`).not.toBe(src);
  }
});
