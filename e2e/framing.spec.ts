import { expect, type Page, test } from "@playwright/test";
import { admin, createActiveOwner, createReadyProspect, type Partner, partnerApi, startParentPortal } from "./enrollment-helpers";

// decisions §10 Framing: embedded pages answer `frame-ancestors` with the owner's origins ∪ the
// operator's; hosted pages `'none'` and `X-Frame-Options: DENY`. Parents are served from other
// origins (127.0.0.1 at free ports; the service is on localhost) so Chromium enforces the header for real.
const OWNER_ORIGIN = "https://portal.example.com";

let links: { embedded: string; hosted: string };
let allowed: Awaited<ReturnType<typeof startParentPortal>>;
let foreign: Awaited<ReturnType<typeof startParentPortal>>;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const api: Partner = await partnerApi();
  try {
    // An owner of this test's own, framed by one HTTPS portal origin.
    const owner = await createActiveOwner(api, { embedded_frame_ancestors: [OWNER_ORIGIN] });
    const prospect = await createReadyProspect(api, { owner, property: "b1", unit: "u1" });
    links = { embedded: prospect.embedded, hosted: prospect.hosted };
  } finally {
    await api.dispose();
  }
  expect(links.embedded).toContain("/enroll/embedded/");
  expect(links.hosted).toContain("/enroll/expedited/");

  // Two portals; the operator allowlists one (staging accepts loopback HTTP, decisions §10).
  [allowed, foreign] = await Promise.all([startParentPortal(), startParentPortal()]);
  admin("frame-origin", "add", "--origin", allowed.origin);
});

test.afterAll(async () => {
  await Promise.all([allowed?.close(), foreign?.close()]);
});

test("embedded links list the owner's and the operator's origins; hosted links forbid framing", async ({ request }) => {
  const embedded = await request.get(links.embedded);
  expect(embedded.status()).toBe(200);
  const csp = embedded.headers()["content-security-policy"];
  expect(csp).toMatch(/^frame-ancestors /);
  const listed = csp.replace("frame-ancestors ", "").split(" ");
  expect(listed).toEqual(expect.arrayContaining([OWNER_ORIGIN, allowed.origin]));
  expect(listed).not.toContain(foreign.origin);
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

async function frameFrom(page: Page, parentOrigin: string, src: string) {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (message.text().includes("frame-ancestors")) violations.push(message.text());
  });
  await page.goto(`${parentOrigin}/?src=${encodeURIComponent(src)}`);
  await expect(page.getByRole("heading", { name: "Parent portal" })).toBeVisible();
  return { violations, frame: page.frameLocator("iframe[title=enrollment]") };
}

test("an allowlisted parent on another origin can frame the embedded link", async ({ page }) => {
  const { frame, violations } = await frameFrom(page, allowed.origin, links.embedded);
  // The renter's first step renders inside the frame (docs/ui-contract: `main[data-step]`).
  await expect(frame.locator('main[data-step="details"]')).toBeVisible();
  await expect(frame.getByRole("heading", { name: "Confirm your details" })).toBeVisible();
  expect(violations).toEqual([]);
});

test("a parent that is not allowlisted cannot frame the embedded link, nor anyone the hosted one", async ({ page }) => {
  for (const [parent, src] of [
    [foreign, links.embedded],
    [allowed, links.hosted],
  ] as const) {
    const { frame, violations } = await frameFrom(page, parent.origin, src);
    // Chromium replaces a refused frame with its own error document: the page never renders in it.
    await expect.poll(() => violations.length, { message: `a frame-ancestors violation for ${parent.origin}` }).toBeGreaterThan(0);
    await expect(frame.locator("main[data-step]")).toHaveCount(0);
    await expect(frame.getByRole("heading", { name: "Confirm your details" })).toHaveCount(0);
    const child = page.frames().find((f) => f !== page.mainFrame());
    expect(child?.url(), `frame from ${parent.origin}`).not.toBe(src);
  }
});
