import { spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, type FrameLocator, type Locator, type Page, request } from "@playwright/test";
import { E2E_BASE_URL, E2E_DATA_DIR } from "../playwright.config";
import { completeProspectFields } from "../src/test/samples";
import { demoCredentials } from "./helpers";

/**
 * Shared setup of the enrollment specs: the Partner API as the demo partner, the
 * operator CLI on the e2e server's database, a parent page on another origin that frames the flow
 * and records what it is posted, an HTTPS webhook receiver trusted by the server
 * (e2e/support/start-server.ts made its certificate), and the steps of the renter flow as
 * docs/ui-contract (the pages' accessible names and `data-*` markers) describes them.
 */

/** Runs `npm run admin -- <args>` against the e2e server's data directory; answers its JSON. */
export function admin(...args: string[]): Record<string, unknown> {
  const run = spawnSync(process.execPath, [path.join("node_modules", "tsx", "dist", "cli.mjs"), "scripts/admin.ts", ...args], {
    env: { ...process.env, DATA_DIR: E2E_DATA_DIR, LOG_LEVEL: "warn" },
    encoding: "utf8",
  });
  expect(run.status, `admin ${args.join(" ")}: ${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout);
}

/** A short unique suffix: runs on a kept data directory never collide with earlier ones. */
export const unique = () => `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

export type Partner = Awaited<ReturnType<typeof partnerApi>>;

/**
 * The demo partner's Partner API: a bearer token from `/api/token`, and JSON calls failing loudly.
 * Its own request context (a hook's `request` fixture cannot serve the tests): `dispose()` it after.
 */
export async function partnerApi() {
  const demo = demoCredentials();
  const http = await request.newContext({ baseURL: E2E_BASE_URL });
  const token = await http.post("/api/token", {
    data: { grant_type: "client_credentials", client_id: demo.client_id, client_secret: demo.client_secret, audience: demo.audience },
  });
  expect(token.status(), await token.text()).toBe(200);
  const headers = { authorization: `Bearer ${(await token.json()).access_token}` };
  const call = async (method: "GET" | "POST" | "DELETE", url: string, data?: unknown) => {
    const answer = await http.fetch(`/api${url}`, { method, headers, data });
    expect(answer.status(), `${method} ${url}: ${await answer.text()}`).toBeLessThan(300);
    return answer.status() === 204 ? {} : answer.json();
  };
  return {
    demo,
    get: (url: string) => call("GET", url),
    post: (url: string, data: unknown) => call("POST", url, data),
    delete: (url: string) => call("DELETE", url),
    dispose: () => http.dispose(),
  };
}

/**
 * An owner of the calling test's own, provisioned as the spec's "Provisioning order for a
 * partner-created owner" says (bank account → building "b1" → unit "u1" → activation).
 */
export async function createActiveOwner(api: Partner, fields: Record<string, unknown> = {}): Promise<string> {
  const orgId = `e2e-org-${unique()}`;
  const created = await api.post("/partners/property_owners", { external_org_id: orgId, name: "E2E Test Owner", ...fields });
  const owner: string = created.property_owner.owner_slug;
  const base = `/partners/${owner}`;
  await api.post(`${base}/bank_accounts`, [{ external_system_id: "ba", display_name: "Main", routing_number: "021000021", account_number: "123456" }]);
  await api.post(`${base}/properties`, [
    { external_system_id: "b1", building_name: "Building One", address: { line_one: "10 Main St", city: "Austin", state: "TX", zip: "78701" } },
  ]);
  await api.post(`${base}/units`, [{ external_system_id: "u1", property_external_id: "b1", name: "101" }]);
  await api.post("/partners/property_owners", { external_org_id: orgId, purchase_flow_enabled: true });
  return owner;
}

export type ProspectLinks = { id: string; email: string; embedded: string; hosted: string };

/**
 * A complete prospect (every field required for `ready`), created through the Partner API; answers
 * once eligibility (a job) has given it its links. Defaults: the demo owner, building and unit.
 */
export async function createReadyProspect(
  api: Partner,
  options: { email?: string; owner?: string; source?: string; property?: string; unit?: string; extra?: Record<string, unknown> } = {},
): Promise<ProspectLinks> {
  const id = `e2e-${unique()}`;
  const email = options.email ?? `renter.${id}@example.com`;
  const owner = options.owner ?? api.demo.owner_slug;
  const source = options.source ?? api.demo.source;
  const fields = completeProspectFields(source, id, options.property ?? api.demo.property_external_id, options.unit ?? api.demo.unit_external_ids[0]);
  await api.post(`/partners/${owner}/prospects`, { prospect: { ...fields, email, ...options.extra } });
  let prospect: Record<string, unknown> = {};
  await expect
    .poll(
      async () => {
        prospect = (await api.get(`/partners/${owner}/prospects/${source}/${id}`)).prospect;
        return prospect.enrollment_url ?? `${prospect.status}: ${JSON.stringify(prospect)}`;
      },
      { timeout: 20_000, message: `prospect ${id} gets an enrollment_url` },
    )
    .toMatch(/^http/);
  return { id, email, embedded: String(prospect.enrollment_url), hosted: String(prospect.hosted_enrollment_url) };
}

/** An HTTP server on 127.0.0.1 at a free port; `handler` answers every request. */
export async function startHttp(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export type Posted = { data: unknown; origin: string };

/**
 * A partner portal on another origin than the enrollment host (127.0.0.1 vs localhost): `/?src=<url>`
 * frames `url` and records every `message` event, its data and origin, in `window.__posted`.
 */
export function startParentPortal() {
  return startHttp((req, res) => {
    const src = new URL(req.url ?? "/", "http://parent").searchParams.get("src") ?? "";
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="en"><title>Parent portal</title>
<script>window.__posted = []; window.addEventListener("message", (event) => window.__posted.push({ data: event.data, origin: event.origin }));</script>
<main><h1>Parent portal</h1>
<iframe title="enrollment" style="width: 100%; height: calc(100vh - 6rem); border: 0" src="${src.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"></iframe></main></html>`);
  });
}

/** Opens the parent portal framing `src`; answers the frame and a reader of what the parent was posted. */
export async function openInParent(page: Page, parentOrigin: string, src: string) {
  await page.goto(`${parentOrigin}/?src=${encodeURIComponent(src)}`);
  await expect(page.getByRole("heading", { name: "Parent portal" })).toBeVisible();
  return {
    frame: page.frameLocator("iframe[title=enrollment]"),
    posted: () => page.evaluate(() => (window as unknown as { __posted: Posted[] }).__posted),
  };
}

export type Received = { headers: http.IncomingHttpHeaders; body: string };

/** An HTTPS webhook receiver on loopback with the certificate the e2e server trusts; answers 200. */
export async function startWebhookReceiver() {
  const tls = path.join(E2E_DATA_DIR, "tls");
  const received: Received[] = [];
  const server = https.createServer({ key: fs.readFileSync(path.join(tls, "server.key")), cert: fs.readFileSync(path.join(tls, "server.pem")) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** spec Events, Headers: `X-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>` (one v1 per valid secret). */
export function signatureIsValid(header: string | undefined, secret: string, body: string): boolean {
  const parts = (header ?? "").split(",").map((part) => part.split("="));
  const t = parts.find(([key]) => key === "t")?.[1];
  const expected = createHmac("sha256", secret).update(`${t}.${body}`, "utf8").digest("hex");
  return t !== undefined && parts.some(([key, value]) => key === "v1" && value === expected);
}

// ---------------------------------------------------------------------------------------------
// The renter's steps (the pages' contract: `main[data-step]`, labels, button names).

/** A page or a frame: the steps are the same inside the partner's iframe. */
export type Scope = Page | FrameLocator;

export const step = (scope: Scope, name: "details" | "quote" | "choose" | "pay" | "result") => scope.locator(`main[data-step="${name}"]`);
export const anyStep = (scope: Scope) => scope.locator("main[data-step]");
export const result = (scope: Scope, state: "completed" | "declined" | "blocked") =>
  scope.locator(`main[data-step="result"][data-enrollment-state="${state}"]`);

/** Step 1: the partner pushed name, phone and birth date; the renter accepts the disclosures and goes on. */
export async function submitDetails(scope: Scope) {
  const details = step(scope, "details");
  await expect(details.getByRole("heading", { name: "Confirm your details" })).toBeVisible();
  await expect(details.getByLabel("First name", { exact: true })).toHaveValue("Rita");
  await expect(details.getByLabel("Phone", { exact: true })).toHaveValue(/512/);
  await details.getByLabel("I have read and accept the disclosures").check();
  await details.getByRole("button", { name: "Continue" }).click();
}

export const OPTIONS = {
  sdiUpfront: "Deposit insurance, paid upfront",
  sdiMonthly: "Deposit insurance, paid monthly",
  cash: "Cash deposit",
  guaranteeUpfront: "Lease guarantee, paid upfront",
  guaranteeMonthly: "Lease guarantee, paid monthly",
} as const;

/** Step 3 (after the quote step refreshed itself into it): pick an option and go to payment. */
export async function choose(scope: Scope, option: string) {
  const choosing = step(scope, "choose");
  await expect(choosing.getByRole("heading", { name: "Choose your option" })).toBeVisible({ timeout: 20_000 });
  const radio = choosing.getByRole("group", { name: "Your options" }).getByRole("radio", { name: option });
  // The renter clicks the option's label (the styled card drawn over the native radio).
  await choosing.locator("label", { hasText: option }).click();
  await expect(radio).toBeChecked();
  await choosing.getByRole("button", { name: "Continue to payment" }).click();
  await expect(step(scope, "pay")).toBeVisible();
}

export const CARDS = { pays: "4242 4242 4242 4242", declined: "4000 0000 0000 0002" } as const;

/** Step 4: types a card and presses "Pay $…". */
export async function pay(scope: Scope, card: string = CARDS.pays) {
  const paying = step(scope, "pay");
  await expect(paying.getByRole("heading", { name: "Payment" })).toBeVisible();
  await paying.getByLabel("Name on card", { exact: true }).fill("Rita Renter");
  await paying.getByLabel("Card number", { exact: true }).fill(card);
  await paying.getByLabel("Expiry date", { exact: true }).fill("12/30");
  await paying.getByLabel("Security code", { exact: true }).fill("123");
  await paying.getByLabel("ZIP code", { exact: true }).fill("78704");
  await paying.getByRole("button", { name: /^Pay \$\d[\d,]*\.\d{2}$/ }).click();
}

/** Details → quote → choose → pay → result, as a renter with a card that pays. */
export async function enrollToCompletion(scope: Scope, option: string = OPTIONS.sdiUpfront): Promise<Locator> {
  await submitDetails(scope);
  await choose(scope, option);
  await pay(scope);
  const done = result(scope, "completed");
  await expect(done).toBeVisible({ timeout: 20_000 });
  return done;
}
