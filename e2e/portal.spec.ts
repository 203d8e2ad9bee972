import { createHmac, hkdfSync } from "node:crypto";
import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../playwright.config";
import { connectPostgres } from "../src/server/db/url";
import { completeProspectFields } from "../src/test/samples";
import { createActiveOwner, partnerApi, unique } from "./enrollment-helpers";
import { KEEP_SCREENS } from "./helpers";

/** The partner portal (decisions §16 Portal; docs/decisions.md, "Partner developer: portal"). */

const ADMIN_ORIGIN = "https://admin.partner.example";
const SHOTS = path.join(".data", "portal-shots");

/** An HTTPS receiver trusted by the e2e server whose answer can be flipped (500 until told otherwise). */
async function flippableReceiver() {
  const tls = path.join(E2E_DATA_DIR, "tls");
  let status = 500;
  const received: string[] = [];
  const server = https.createServer({ key: fs.readFileSync(path.join(tls, "server.key")), cert: fs.readFileSync(path.join(tls, "server.pem")) }, (req, res) => {
    req.resume();
    req.on("end", () => {
      received.push(String(req.headers["x-webhook-delivery"]));
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "receiver is down");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://localhost:${(server.address() as AddressInfo).port}/hook`,
    received,
    answer: (next: number) => {
      status = next;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A portal token signed independently of the service's code, with the e2e server's master key (an expired one here). */
function tokenSignedAt(clientId: string, ownerId: number, expiresAtSeconds: number): string {
  const secrets = JSON.parse(fs.readFileSync(path.join(E2E_DATA_DIR, "secrets.json"), "utf8")) as { master_key: string };
  const key = Buffer.from(hkdfSync("sha256", Buffer.from(secrets.master_key, "base64"), Buffer.alloc(0), "pis:portal-session", 32));
  const body = `v1.${Buffer.from(JSON.stringify({ c: clientId, o: ownerId, x: expiresAtSeconds, n: "e2e" })).toString("base64url")}`;
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

async function shoot(page: Page, name: string) {
  if (!KEEP_SCREENS) return;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
  }
}

test("a partner opens the portal from its session URL, reads an endpoint and a delivery, retries it, pauses and resumes, and reaches nothing else", async ({
  page,
  browser,
}) => {
  // One long walk through the portal (a dozen pages and four actions) on a shared machine.
  test.setTimeout(180_000);
  const receiver = await flippableReceiver();
  const api = await partnerApi();
  const sql = connectPostgres(JSON.parse(fs.readFileSync(path.join(E2E_DATA_DIR, "postgres.json"), "utf8")).url, { max: 1, onnotice: () => {} });
  try {
    const owner = await createActiveOwner(api, { embedded_frame_ancestors: [ADMIN_ORIGIN] });
    const { endpoint } = await api.post(`/partners/${owner}/webhooks/endpoints`, {
      endpoint: { name: "Portal hook", destination_url: receiver.url, events: ["prospect.created"] },
    });
    await api.post(`/partners/${owner}/prospects`, { prospect: completeProspectFields(api.demo.source, `e2e-${unique()}`, "b1", "u1") });
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    // As after the 25th attempt: the one thing no page can do fast.
    await sql`update webhook_deliveries set status = 'failed', attempt_number = 25, next_retry_at = null where endpoint_id = ${endpoint.id}`;
    const other = await createActiveOwner(api);
    const { endpoint: othersEndpoint } = await api.post(`/partners/${other}/webhooks/endpoints`, {
      endpoint: { name: "Another owner's hook", destination_url: receiver.url, events: ["prospect.created"] },
    });

    // Framed in the partner's admin only because the session asks for it (docs/decisions.md, "Second security review").
    const session = await api.post(`/partners/${owner}/portal_sessions`, { frame_ancestors: [ADMIN_ORIGIN] });
    expect(session.status_code).toBe(201);
    const entered = await page.goto(session.url);
    // The token leaves the address bar: the first visit traded it for the cookie.
    await expect(page).toHaveURL(/\/portal$/);
    expect(entered?.headers()["content-security-policy"]).toBe(`frame-ancestors ${ADMIN_ORIGIN}`);
    expect(entered?.headers()["x-frame-options"]).toBeUndefined();
    await expect(page.getByRole("heading", { name: "Webhook endpoints" })).toBeVisible();
    const row = page.getByRole("row", { name: /Portal hook/ });
    await expect(row).toContainText("active");
    await expect(row).toContainText("0 %");
    await expect(row).toContainText("500");
    await expect(page.getByText("Another owner's hook")).toHaveCount(0);
    await shoot(page, "endpoints");

    // The endpoint: its deliveries, filtered by status in the URL, keyboard first.
    await row.getByRole("link", { name: "Portal hook" }).click();
    await expect(page.getByRole("heading", { name: "Portal hook" })).toBeVisible();
    await page.getByLabel("Status").selectOption("failed");
    await page.getByRole("button", { name: "Filter" }).press("Enter");
    await expect(page).toHaveURL(/status=failed/);
    const deliveries = page.getByRole("table", { name: "Deliveries" }).getByRole("row");
    await expect(deliveries).toHaveCount(2);
    await expect(deliveries.nth(1)).toContainText("failed");
    await expect(deliveries.nth(1)).toContainText("prospect.created");
    await shoot(page, "endpoint");
    await page.getByLabel("Status").selectOption("delivered");
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByText("No delivery with status delivered.")).toBeVisible();
    await page.getByLabel("Status").selectOption("failed");
    await page.getByRole("button", { name: "Filter" }).click();

    // One delivery: the exact payload, the attempts with their reasons; retry it.
    await page.getByRole("table", { name: "Deliveries" }).getByRole("link", { name: /^wd_/ }).click();
    await expect(page.getByRole("heading", { name: /^Delivery wd_/ })).toBeVisible();
    await expect(page.locator("pre")).toContainText('"event":"prospect.created"');
    await expect(page.getByRole("table", { name: "Attempts" })).toContainText("500");
    await shoot(page, "delivery");
    receiver.answer(200);
    const before = receiver.received.length;
    await page.getByRole("button", { name: "Retry delivery" }).click();
    await expect(page.getByRole("status")).toHaveText("The delivery was queued again.");
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(before);
    await expect(async () => {
      await page.reload();
      await expect(page.getByText("delivered", { exact: true })).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });

    // Pause and resume the endpoint.
    await page.getByRole("link", { name: "Portal hook" }).click();
    await page.getByRole("button", { name: "Pause endpoint" }).click();
    await expect(page.getByRole("status")).toContainText("paused");
    await expect(page.getByRole("definition").filter({ hasText: "disabled" })).toBeVisible();
    await page.getByRole("button", { name: "Resume endpoint" }).click();
    await expect(page.getByRole("status")).toContainText("active again");
    await expect(page.getByRole("button", { name: "Pause endpoint" })).toBeVisible();

    // Send a test event: the new delivery is linked, listed marked test, and reaches the receiver.
    const table = page.getByRole("table", { name: "Deliveries" });
    await page.getByLabel("Event to send").selectOption("prospect.created");
    const sentBefore = receiver.received.length;
    await page.getByRole("button", { name: "Send test event" }).press("Enter");
    const sent = page.getByRole("status").filter({ hasText: "Test event sent" });
    await expect(sent).toBeVisible();
    const testId = (await sent.getByRole("link").textContent()) ?? "";
    expect(testId).toMatch(/^wd_/);
    const testRow = table.getByRole("row", { name: new RegExp(testId) });
    await expect(testRow.getByText("test", { exact: true })).toBeVisible();
    await expect.poll(() => receiver.received.slice(sentBefore), { timeout: 20_000 }).toContain(testId);
    await shoot(page, "endpoint-test-event");
    // An event the endpoint does not subscribe to (a tampered form): the refusal sits by its field.
    await page.getByLabel("Event to send").evaluate((select) => {
      (select as HTMLSelectElement).options[0].value = "prospect.ready";
    });
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByText("is not subscribed by this endpoint: prospect.ready")).toBeVisible();
    await expect(page.getByLabel("Event to send")).toHaveAttribute("aria-invalid", "true");

    // Retry failed deliveries: two fail (as after their 25th attempt), then the portal retries them.
    receiver.answer(500);
    const failingBefore = receiver.received.length;
    for (let i = 0; i < 2; i++)
      await api.post(`/partners/${owner}/prospects`, { prospect: completeProspectFields(api.demo.source, `e2e-${unique()}`, "b1", "u1") });
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(failingBefore + 2);
    // Their first attempts settled (retrying), so nothing overwrites the failure set below.
    await expect
      .poll(
        async () =>
          (await sql<{ n: number }[]>`select count(*)::int as n from webhook_deliveries where endpoint_id = ${endpoint.id} and status = 'retrying'`)[0].n,
        {
          timeout: 20_000,
        },
      )
      .toBe(2);
    const failing = await sql<{ id: string }[]>`
      update webhook_deliveries set status = 'failed', attempt_number = 25, next_retry_at = null
      where endpoint_id = ${endpoint.id} and not test and status <> 'delivered' returning id`;
    expect(failing).toHaveLength(2);
    receiver.answer(200);
    // While an earlier recovery of this endpoint is queued: the 409's message, and nothing matched.
    const [running] = await sql<{ id: number }[]>`
      insert into bulk_retries (filter, cutoff, matched, requested_by, status)
      values (${sql.json({ endpoint_id: endpoint.id, status: "failed" })}, now(), 0, 'e2e', 'queued') returning id`;
    await page.goto(`/portal/endpoints/${endpoint.id}`);
    await expect(page.getByLabel("Deliveries to retry")).toHaveValue("failed");
    const since = await page.getByLabel("Created since (UTC)").inputValue();
    expect(Math.abs(Date.parse(`${since}Z`) - (Date.now() - 86_400_000))).toBeLessThan(120_000);
    await page.getByRole("button", { name: "Retry deliveries" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "already" })).toHaveText(
      "A retry of this endpoint's deliveries is already queued or running; ask again when it is done",
    );
    await sql`delete from bulk_retries where id = ${running.id}`;
    const retriedFrom = receiver.received.length;
    await page.getByRole("button", { name: "Retry deliveries" }).click();
    await expect(page.getByRole("status").filter({ hasText: "matched" })).toHaveText("2 deliveries matched and are being retried.");
    await shoot(page, "endpoint-retry");
    const ids = failing.map((row) => row.id);
    await expect.poll(() => ids.filter((id) => receiver.received.slice(retriedFrom).includes(id)).length, { timeout: 30_000 }).toBe(2);
    await expect(async () => {
      await page.goto(`/portal/endpoints/${endpoint.id}?status=failed`);
      await expect(page.getByText("No delivery with status failed.")).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 20_000 });

    // Another owner's endpoint named in the path: not found, whatever the path says.
    await page.goto(`/portal/endpoints/${othersEndpoint.id}`);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();
    await page.goto(`/portal/endpoints/${endpoint.id}/deliveries/wd_nope`);
    await expect(page.getByRole("heading", { name: "Not found" })).toBeVisible();

    // A page outside the portal stays unframeable.
    const consolePage = await page.request.get("/console/signin");
    expect(consolePage.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");

    // An altered link, an expired one, and no session at all: refused with a page that says so.
    const fresh = await browser.newPage();
    const altered = session.url.replace(/.$/, (last: string) => (last === "A" ? "B" : "A"));
    expect((await fresh.goto(altered))?.status()).toBe(403);
    await expect(fresh.getByRole("heading", { name: "Portal link not valid" })).toBeVisible();
    const [{ id: ownerId, client_id: clientId }] = await sql<{ id: number; client_id: string }[]>`
      select o.id, g.client_id from property_owners o join client_owner_grants g on g.owner_id = o.id where o.slug = ${owner} limit 1`;
    const expired = tokenSignedAt(clientId, ownerId, Math.floor(Date.now() / 1000) - 1);
    expect((await fresh.goto(`/portal/session/${expired}`))?.status()).toBe(410);
    await expect(fresh.getByRole("heading", { name: "Portal link expired" })).toBeVisible();
    const unsigned = await fresh.goto("/portal");
    await expect(fresh.getByRole("heading", { name: "Portal session ended" })).toBeVisible();
    expect(unsigned?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    // The link opens once (docs/decisions.md, "Second security review"): another browser gets nothing from it.
    expect((await fresh.goto(session.url))?.status()).toBe(403);
    await expect(fresh.getByRole("heading", { name: "Portal link already used" })).toBeVisible();
    await fresh.close();

    // Sign out ends the session on the server: the portal is closed, a reload too.
    await page.goto("/portal");
    await page.getByRole("button", { name: "Sign out" }).click();
    await expect(page.getByRole("heading", { name: "Portal session ended" })).toBeVisible();
    await page.goto(`/portal/endpoints/${endpoint.id}`);
    await expect(page.getByRole("heading", { name: "Portal session ended" })).toBeVisible();
  } finally {
    await sql.end();
    await api.dispose();
    await receiver.close();
  }
});
