import { expect, request, test } from "@playwright/test";
import { E2E_BASE_URL } from "../playwright.config";
import { screenshots, signInAsOperator } from "./console-helpers";
import { partnerApi, unique } from "./enrollment-helpers";

/**
 * docs/decisions.md, "Console: access management, part A": an operator creates an API client, sees its secret once, grants
 * it an owner; the secret is exchanged for a token at /api/token and the partner reaches the owner;
 * the grant is revoked and the next request is refused; the secret is rotated; the audit log shows it all.
 */
test("create a client, see the secret once, grant an owner, use it, revoke, rotate; all audited", async ({ page }) => {
  const api = await partnerApi();
  const http = await request.newContext({ baseURL: E2E_BASE_URL });
  try {
    const created = await api.post("/partners/property_owners", { external_org_id: `e2e-access-${unique()}`, name: "Access Test Owner" });
    const owner: string = created.property_owner.owner_slug;
    const tokenFor = (clientId: string, secret: string) =>
      http.post("/api/token", { data: { grant_type: "client_credentials", client_id: clientId, client_secret: secret, audience: api.demo.audience } });
    const probe = (accessToken: string) => http.get(`/api/partners/${owner}/move_outs/none`, { headers: { authorization: `Bearer ${accessToken}` } });

    await signInAsOperator(page);
    await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Access" }).click();
    await expect(page.getByRole("heading", { name: "API clients" })).toBeVisible();

    // Create: the secret is shown once, in the dialog.
    const name = `E2E Client ${unique()}`;
    await page.getByRole("button", { name: "New client" }).click();
    const dialog = page.getByRole("dialog", { name: "New API client" });
    await dialog.getByLabel("Name").fill(name);
    await expect(dialog.getByRole("checkbox", { name: "move_outs:read" })).toBeChecked();
    await dialog.getByRole("button", { name: "Create client" }).click();
    const shown = page.getByRole("dialog", { name: "Client created" });
    await expect(shown.getByText("you will not see it again")).toBeVisible();
    const secret = await shown.getByRole("textbox", { name: "Secret", exact: true }).inputValue();
    const clientId = (await shown.locator("code").first().textContent()) ?? "";
    expect(secret.length).toBeGreaterThan(30);
    expect(clientId).toMatch(/^pc_/);
    await screenshots(page, "console-access-secret");
    await shown.getByRole("button", { name: /I have stored it/ }).click();
    await expect(page).toHaveURL(new RegExp(`/console/access/clients/${clientId}$`));
    await expect(page.getByRole("heading", { name })).toBeVisible();
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await expect(page.getByRole("heading", { name })).toBeVisible();
    expect(await page.content()).not.toContain(secret);

    // The secret works at /api/token; the owner is not granted yet.
    const first = await tokenFor(clientId, secret);
    expect(first.status(), await first.text()).toBe(200);
    const accessToken = (await first.json()).access_token as string;
    expect((await probe(accessToken)).status()).toBe(403);

    // Grant the owner from the client's page: the next request passes the grant check.
    const grants = page.getByRole("region", { name: "Owner grants" });
    await page.getByLabel("Owner slug").fill(owner);
    await page.getByRole("button", { name: "Grant owner" }).click();
    await expect(page.getByText(`Granted ${owner}.`)).toBeVisible();
    await expect(grants.getByRole("row").filter({ hasText: owner })).toContainText("Access Test Owner");
    expect((await probe(accessToken)).status()).toBe(404);
    await screenshots(page, "console-access-client");

    // Revoke, confirmed: the next request is refused.
    await grants.getByRole("button", { name: `Revoke ${owner}` }).click();
    const confirm = page.getByRole("dialog", { name: `Revoke the grant of ${owner}?` });
    await confirm.getByRole("button", { name: "Revoke" }).click();
    await expect(confirm).toBeHidden();
    await expect(page.getByText("No owners granted yet.")).toBeVisible();
    expect((await probe(accessToken)).status()).toBe(403);

    // Rotate, confirmed by typing the client id: the new secret is shown once; the old one stops working.
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const rotate = page.getByRole("dialog", { name: /Rotate the secret/ });
    await expect(rotate.getByRole("button", { name: "Rotate secret" })).toBeDisabled();
    await rotate.getByLabel(/Type .* to confirm/).fill(clientId);
    await rotate.getByRole("button", { name: "Rotate secret" }).click();
    await expect(rotate).toBeHidden();
    const rotated = await page.getByRole("textbox", { name: "Secret", exact: true }).inputValue();
    expect(rotated).not.toBe(secret);
    expect((await tokenFor(clientId, secret)).status()).toBe(401);
    expect((await tokenFor(clientId, rotated)).status()).toBe(200);
    await page.getByRole("button", { name: "I have stored it" }).click();
    await expect(page.getByRole("textbox", { name: "Secret", exact: true })).toHaveCount(0);

    // Disable, confirmed: no token while disabled; enabling restores it.
    await page.getByRole("button", { name: "Disable client" }).click();
    const disable = page.getByRole("dialog", { name: /Disable .*\?/ });
    await disable.getByRole("button", { name: "Disable client" }).click();
    await expect(disable).toBeHidden();
    await expect(page.getByRole("button", { name: "Enable client" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Rotate secret" })).toHaveCount(0);
    expect((await tokenFor(clientId, rotated)).status()).toBe(401);
    await page.getByRole("button", { name: "Enable client" }).click();
    await expect(page.getByRole("button", { name: "Disable client" })).toBeVisible();
    expect((await tokenFor(clientId, rotated)).status()).toBe(200);

    // The client's changes, and the audit log, by whom; never the secret.
    const changes = page.getByRole("region", { name: "Changes" });
    for (const action of ["clients.create", "clients.grant_owner", "clients.revoke_owner", "clients.rotate_secret", "clients.disable", "clients.enable"])
      await expect(changes.getByRole("row").filter({ hasText: action })).toContainText(api.demo.console_email);
    await page.goto(`/console/audit?subject_type=client&subject_id=${clientId}`);
    await expect(page.getByRole("row")).toHaveCount(7);
    await expect(page.getByRole("row").filter({ hasText: "clients.revoke_owner" })).toBeVisible();
    const audit = await page.content();
    expect(audit).not.toContain(secret);
    expect(audit).not.toContain(rotated);

    // The list finds it by name, the filter in the URL.
    await page.goto("/console/access/clients");
    await page.getByLabel("Name or client id").fill(name);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/[?&]q=E2E/);
    await expect(page.getByRole("row").filter({ hasText: clientId })).toContainText("optional");
    await screenshots(page, "console-access-clients");

    // A provider covering the owner, then the building grants screen.
    const code = `e2e-${unique()}`;
    await page.getByRole("navigation", { name: "Access" }).getByRole("link", { name: "Providers" }).click();
    await page.getByRole("button", { name: "New provider" }).click();
    const provider = page.getByRole("dialog", { name: "New provider subscription" });
    await provider.getByLabel("Code").fill(code);
    await provider.getByLabel("Client id").fill(clientId);
    await provider.getByLabel("Owners (slugs)").fill(owner);
    await provider.getByRole("button", { name: "Create provider" }).click();
    await expect(provider).toBeHidden();
    await expect(page.getByRole("row").filter({ hasText: code })).toContainText(owner);
    await screenshots(page, "console-access-providers");
    await page.getByRole("navigation", { name: "Access" }).getByRole("link", { name: "Building grants" }).click();
    await expect(page.getByRole("heading", { name: "Building grants" })).toBeVisible();
    await page.getByRole("button", { name: "Add building grant" }).click();
    const add = page.getByRole("dialog", { name: "Add a building grant" });
    await add.getByLabel("Owner slug").fill("no-such-owner");
    await add.getByLabel("Client id").fill(clientId);
    await add.getByLabel("PMS property id").fill("p-1");
    await add.getByRole("button", { name: "Add grant" }).click();
    await expect(add.getByText("No owner no-such-owner")).toBeVisible();
    await screenshots(page, "console-access-building-grants");
  } finally {
    await http.dispose();
    await api.dispose();
  }
});
