import { type APIResponse, expect, type Page, type Response, test } from "@playwright/test";
import { signInAsOperator } from "./console-helpers";
import { createActiveOwner, createReadyProspect, type Partner, partnerApi, startParentPortal } from "./enrollment-helpers";
import { startWebProcess } from "./support/web-process";

// decisions §15: console, docs and demo pages answer `X-Frame-Options: DENY` and
// `frame-ancestors 'none'`, `X-Content-Type-Options: nosniff`, `Referrer-Policy:
// strict-origin-when-cross-origin`, and HSTS when PUBLIC_BASE_URL is HTTPS; enrollment pages keep
// their own framing rules (§10). Checked on the built app as `npm start` serves it.
const UNFRAMEABLE = ["/", "/console/signin", "/demo", "/api/docs", "/api/docs/assets/swagger-ui.css", "/api/openapi.json"];

type Headers = Record<string, string>;

function expectPageHeaders(headers: Headers, where: string) {
  expect(headers["x-frame-options"], where).toBe("DENY");
  expect(headers["content-security-policy"], where).toMatch(/(^|;\s*)frame-ancestors 'none'(;|$)/);
  expect(headers["x-content-type-options"], where).toBe("nosniff");
  expect(headers["referrer-policy"], where).toBe("strict-origin-when-cross-origin");
}

/** The headers of a successful answer (a request's, or a page's navigation). */
async function headersOf(answer: APIResponse | Response | null, where: string): Promise<Headers> {
  expect(answer, where).not.toBeNull();
  const found = answer as APIResponse | Response;
  expect(found.status(), where).toBeLessThan(400);
  return "allHeaders" in found ? found.allHeaders() : found.headers();
}

test("console, docs, demo and the home page forbid framing and sniffing and keep the referrer to the origin; no HSTS over HTTP", async ({ request }) => {
  for (const path of UNFRAMEABLE) {
    const headers = await headersOf(await request.get(path), path);
    expectPageHeaders(headers, path);
    expect(headers["strict-transport-security"], path).toBeUndefined();
  }
  // The docs page keeps its own content policy beside frame-ancestors.
  expect((await request.get("/api/docs")).headers()["content-security-policy"]).toContain("script-src 'self'");
});

test("the signed-in console's pages carry them too", async ({ page }) => {
  const answers: { url: string; headers: Headers }[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() === "document") answers.push({ url: response.url(), headers: await response.allHeaders() });
  });
  await signInAsOperator(page);
  for (const path of ["/console/prospects", "/console/access/clients"]) {
    const answer = await page.goto(path);
    expectPageHeaders(await headersOf(answer, path), path);
  }
  expect(answers.length).toBeGreaterThan(0);
  for (const { url, headers } of answers) expectPageHeaders(headers, url);
});

test("a page on another origin cannot frame the console's sign-in page", async ({ page, baseURL }) => {
  const parent = await startParentPortal();
  try {
    await expectFramingRefused(page, parent.origin, new URL("/console/signin", baseURL).toString());
  } finally {
    await parent.close();
  }
});

async function expectFramingRefused(page: Page, parentOrigin: string, src: string) {
  const refusals: string[] = [];
  page.on("console", (message) => {
    if (/frame-ancestors|X-Frame-Options/.test(message.text())) refusals.push(message.text());
  });
  await page.goto(`${parentOrigin}/?src=${encodeURIComponent(src)}`);
  await expect(page.getByRole("heading", { name: "Parent portal" })).toBeVisible();
  await expect.poll(() => refusals.length, { message: `framing ${src} is refused` }).toBeGreaterThan(0);
  await expect(page.frameLocator("iframe[title=enrollment]").getByRole("button", { name: "Sign in" })).toHaveCount(0);
}

test("enrollment pages keep their own framing rules, with the other headers", async ({ request }) => {
  const api: Partner = await partnerApi();
  let links: { embedded: string; hosted: string };
  try {
    const owner = await createActiveOwner(api, { embedded_frame_ancestors: ["https://portal.example.com"] });
    links = await createReadyProspect(api, { owner, property: "b1", unit: "u1" });
  } finally {
    await api.dispose();
  }
  const embedded = (await request.get(links.embedded)).headers();
  expect(embedded["content-security-policy"]).toMatch(/^frame-ancestors .*https:\/\/portal\.example\.com/);
  expect(embedded["x-frame-options"]).toBeUndefined();
  expect(embedded["x-content-type-options"]).toBe("nosniff");
  expect(embedded["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  const hosted = (await request.get(links.hosted)).headers();
  expect(hosted["content-security-policy"]).toBe("frame-ancestors 'none'");
  expect(hosted["x-frame-options"]).toBe("DENY");
});

test("with an HTTPS PUBLIC_BASE_URL every page also answers Strict-Transport-Security", async () => {
  const web = await startWebProcess(Number(process.env.E2E_PORT ?? 3210) + 2, { PUBLIC_BASE_URL: "https://pis.example.test" });
  try {
    for (const path of [...UNFRAMEABLE, "/enroll/expedited/nobody/x"]) {
      const answer = await fetch(`${web.url}${path}`, { redirect: "manual" });
      expect(answer.headers.get("strict-transport-security"), path).toBe("max-age=63072000; includeSubDomains");
    }
    expectPageHeaders(Object.fromEntries((await fetch(`${web.url}/console/signin`)).headers), "/console/signin over https");
  } finally {
    await web.stop();
  }
});
