import { type Browser, expect, type Page, test } from "@playwright/test";
import { screenshots, signInAsOperator } from "./console-helpers";
import { partnerApi, unique } from "./enrollment-helpers";

/**
 * docs/decisions.md, "Console: access, part B": an operator opens an owner, reveals and rotates its signing
 * secret, gives a source a redirect domain, adds and removes a frame origin (the embedded pages'
 * frame-ancestors follow), creates an account manager who signs in without a Users screen, then
 * disables them and their open session is refused; the audit log shows every action.
 */
test.describe.configure({ timeout: 180_000 });

async function signIn(browser: Browser, email: string, password: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/console/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/console$/);
  return page;
}

test("owner secret, sources, frame origins and console users", async ({ page, browser }) => {
  const tag = unique();
  const api = await partnerApi();
  const ownerName = `Access Holdings ${tag}`;
  let owner: string;
  try {
    const created = await api.post("/partners/property_owners", { external_org_id: `e2e-access-${tag}`, name: ownerName });
    owner = created.property_owner.owner_slug;
  } finally {
    await api.dispose();
  }
  const clientId = api.demo.client_id;
  await signInAsOperator(page);
  const main = page.getByRole("main");

  // Owners: search (in the URL), open the owner.
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Owners" }).click();
  await page.getByLabel("Name, slug or external org id").fill(tag);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}`));
  await screenshots(page, "access-owners");
  await main.getByRole("link", { name: ownerName }).click();
  await expect(page).toHaveURL(new RegExp(`/console/owners/${owner}$`));
  await expect(page.getByRole("heading", { name: ownerName })).toBeVisible();
  await expect(main.getByText("No buildings.")).toBeVisible();

  // Reveal, hide, rotate: the new secret is shown, the old one's end of validity too.
  const secretBox = main.getByTestId("signing-secret");
  await main.getByRole("button", { name: "Reveal secret" }).click();
  await expect(secretBox).toHaveText(/^whsec_\S+$/);
  const first = (await secretBox.textContent()) ?? "";
  await main.getByRole("button", { name: "Hide" }).click();
  await expect(secretBox).toHaveCount(0);
  await main.getByRole("button", { name: "Rotate secret" }).click();
  const dialog = page.getByRole("dialog", { name: "Rotate the signing secret?" });
  await dialog.getByRole("button", { name: "Rotate" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(secretBox).toHaveText(/^whsec_\S+$/);
  expect(await secretBox.textContent()).not.toBe(first);
  await expect(main.getByText(/The previous secret is still signed with until/)).toBeVisible();
  await screenshots(page, "access-owner-detail");

  // Sources: create one, then add a redirect domain; a bad one is refused beside its field.
  const code = `e2e_${tag}`;
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Access" }).click();
  await page.getByRole("navigation", { name: "Access" }).getByRole("link", { name: "Sources" }).click();
  const create = main.getByRole("form", { name: "Create a source" });
  await create.getByLabel("Code").fill(code);
  await create.getByLabel("Client id").fill(clientId);
  await create.getByRole("button", { name: "Create source" }).click();
  await expect(create.getByText(`Source ${code} created.`)).toBeVisible();
  await page.getByLabel("Code or client").fill(code);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${code}`));
  const row = main.getByRole("row").filter({ hasText: code });
  await row.getByRole("button", { name: `Edit ${code}` }).click();
  const edit = page.getByRole("dialog", { name: `Edit source ${code}` });
  await edit.getByLabel("Redirect domains").fill("https://apply.example.com");
  await edit.getByRole("button", { name: "Save source" }).click();
  await expect(edit.getByText("Not a domain name: https://apply.example.com")).toBeVisible();
  await edit.getByLabel("Redirect domains").fill("apply.example.com");
  await edit.getByRole("button", { name: "Save source" }).click();
  await expect(edit).toHaveCount(0);
  await expect(row).toContainText("apply.example.com");
  await screenshots(page, "access-sources");

  // Frame origins: add one; the embedded page allows it; remove it (confirmed); it is gone.
  const origin = `https://portal-${tag}.example.com`;
  const embeddedCsp = async () =>
    (await page.request.get(`/enroll/embedded/${owner}/${code}/p-1`, { maxRedirects: 0 })).headers()["content-security-policy"] ?? "";
  await page.getByRole("navigation", { name: "Access" }).getByRole("link", { name: "Frame origins" }).click();
  const add = main.getByRole("form", { name: "Add a frame origin" });
  await add.getByLabel("Origin").fill("http://portal.example.com");
  await add.getByRole("button", { name: "Add origin" }).click();
  await expect(add.getByText(/Origin must be an HTTPS origin/)).toBeVisible();
  await add.getByLabel("Origin").fill(origin);
  await add.getByRole("button", { name: "Add origin" }).click();
  await expect(main.getByRole("row").filter({ hasText: origin })).toBeVisible();
  expect(await embeddedCsp()).toContain(origin);
  await screenshots(page, "access-frame-origins");
  await main.getByRole("button", { name: `Remove ${origin}` }).click();
  const confirmRemove = page.getByRole("dialog", { name: `Remove ${origin}?` });
  await confirmRemove.getByRole("button", { name: "Remove" }).click();
  // The dialog closes once the removal is done (while it is open, the page behind is hidden from role queries).
  await expect(confirmRemove).toHaveCount(0);
  await expect(main.getByRole("row").filter({ hasText: origin })).toHaveCount(0);
  expect(await embeddedCsp()).not.toContain(origin);

  // Users: create an account manager; a weak password is refused first.
  const email = `manager-${tag}@example.com`;
  const password = `manager password ${tag}`;
  await page.getByRole("navigation", { name: "Access" }).getByRole("link", { name: "Users" }).click();
  const newUser = main.getByRole("form", { name: "Create a user" });
  await newUser.getByLabel("Email").fill(email);
  await newUser.getByLabel("Password").fill("short");
  await newUser.getByRole("button", { name: "Create user" }).click();
  await expect(newUser.getByText("Password must be at least 12 characters")).toBeVisible();
  await newUser.getByLabel("Password").fill(password);
  await newUser.getByRole("button", { name: "Create user" }).click();
  await expect(newUser.getByText(`${email} can now sign in.`)).toBeVisible();
  const userRow = main.getByRole("row").filter({ hasText: email });
  await expect(userRow).toContainText("Account manager");
  await screenshots(page, "access-users");

  // The account manager signs in: no Users in their navigation, and the screen refuses them.
  const manager = await signIn(browser, email, password);
  await manager.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Access" }).click();
  const accessNav = manager.getByRole("navigation", { name: "Access" });
  await expect(accessNav.getByRole("link", { name: "Sources" })).toBeVisible();
  await expect(accessNav.getByRole("link", { name: "Frame origins" })).toBeVisible();
  await expect(accessNav.getByRole("link", { name: "Users" })).toHaveCount(0);
  await expect(manager.getByRole("link", { name: "Users" })).toHaveCount(0);
  await manager.goto("/console/access/users");
  await expect(manager.getByText("Only operators manage console users.")).toBeVisible();
  await screenshots(manager, "access-users-account-manager");

  // Disabled: their open session is refused on its next request.
  await userRow.getByRole("button", { name: `Disable ${email}` }).click();
  const confirmDisable = page.getByRole("dialog", { name: `Disable ${email}?` });
  await confirmDisable.getByRole("button", { name: "Disable" }).click();
  await expect(confirmDisable).toHaveCount(0);
  await expect(userRow).toContainText("disabled");
  await manager.goto("/console/owners");
  await expect(manager).toHaveURL(/\/console\/signin/);
  await manager.context().close();

  // The audit log shows each action, and never a secret.
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Audit log" }).click();
  const log = main.getByRole("region", { name: "Audit log" });
  for (const action of [
    "owner.signing_secret_revealed",
    "owner.signing_secret_rotated",
    "source.created",
    "source.updated",
    "frame_origin.added",
    "frame_origin.removed",
    "user.created",
    "user.disabled",
  ]) {
    await expect(log.getByText(action, { exact: true }).first()).toBeVisible();
  }
  await expect(main.getByText(first)).toHaveCount(0);
});
