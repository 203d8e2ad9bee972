import { expect, test } from "@playwright/test";
import { partnerApi, unique } from "./enrollment-helpers";
import { demoCredentials } from "./helpers";

/**
 * docs/decisions.md, "Console: buildings and the address lock": an operator corrects a building's address in the console; a later
 * unit load through the Partner API that derives another street is recorded and shown, not
 * applied; the audit log shows the correction.
 */
test("correct an address, then a disagreeing unit load is recorded, not applied, and the correction is audited", async ({ page }) => {
  const api = await partnerApi();
  try {
    const created = await api.post("/partners/property_owners", { external_org_id: `e2e-bld-${unique()}`, name: "Quarry Holdings" });
    const owner: string = created.property_owner.owner_slug;
    await api.post(`/partners/${owner}/properties`, [
      { external_system_id: "q1", building_name: "Quarry Lofts", address: { line_one: "200 quarry rd apt 1", city: "Austin", state: "TX", zip: "78701" } },
    ]);
    const units = (line: string) =>
      [1, 2].map((n) => ({
        external_system_id: `u${n}`,
        property_external_id: "q1",
        address: { line_one: `${line} Apt ${n}`, city: "Austin", state: "TX", zip: "78701" },
      }));
    await api.post(`/partners/${owner}/units`, units("200 Quarry Rd"));

    const demo = demoCredentials();
    await page.goto("/console/signin");
    await page.getByLabel("Email").fill(demo.console_email);
    await page.getByLabel("Password").fill(demo.console_password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).not.toHaveURL(/signin/);

    // Find it: the filter lives in the URL.
    await page.goto("/console/buildings");
    await page.getByLabel("Name, address, owner or external id").fill(owner);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${owner}`));
    const row = page.getByRole("row").filter({ hasText: "Quarry Lofts" });
    await expect(row).toContainText("200 Quarry Road, Austin, TX 78701");
    await row.getByRole("link", { name: "Quarry Lofts" }).click();
    await expect(page.getByRole("heading", { name: "Quarry Lofts" })).toBeVisible();
    const main = page.getByRole("main");
    await expect(main.getByText("Derived (not locked)")).toBeVisible();

    // A wrong state is refused beside its field; then the correction is stored and locks the address.
    const form = main.getByRole("form", { name: "Correct the address" });
    await form.getByLabel("Street line").fill("200 Quarry Road, Building A");
    await form.getByLabel("State").fill("Guam");
    await form.getByRole("button", { name: "Correct and lock the address" }).click();
    await expect(form.getByText("must be a US state")).toBeVisible();
    await expect(form.getByLabel("State")).toHaveAttribute("aria-invalid", "true");
    await form.getByLabel("State").fill("texas");
    await form.getByLabel("ZIP").fill("78701-0001");
    await form.getByRole("button", { name: "Correct and lock the address" }).click();
    await expect(form.getByText("Address corrected and locked.")).toBeVisible();
    await expect(main.getByText(/Locked \(corrected by staff\)/)).toBeVisible();
    await expect(main.getByText("200 Quarry Road, Building A, Austin, TX 78701").first()).toBeVisible();

    // A later unit load moving every unit to another street: answered `updated`, recorded, not applied.
    const answer = await api.post(`/partners/${owner}/units`, units("300 Other St"));
    expect(answer.results.map((r: { action: string }) => r.action)).toEqual(["updated", "updated"]);
    await page.reload();
    const disagreements = main.getByRole("region", { name: "Disagreements" });
    await expect(disagreements.getByRole("row").filter({ hasText: "300 Other Street, Austin, TX 78701" })).toContainText("Unit load (derived)");
    await expect(main.getByRole("definition").filter({ hasText: "200 Quarry Road, Building A, Austin, TX 78701" })).toBeVisible();

    // The audit log shows the correction, by whom.
    const changes = main.getByRole("region", { name: "Staff changes" });
    await expect(changes.getByRole("row").filter({ hasText: "buildings.correct_address" })).toContainText(demo.console_email);

    // Deactivate, confirmed first.
    await page.getByRole("button", { name: "Deactivate" }).click();
    const dialog = page.getByRole("dialog", { name: "Deactivate Quarry Lofts?" });
    await dialog.getByRole("button", { name: "Deactivate" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("button", { name: "Activate" })).toBeVisible();
    await expect(changes.getByRole("row").filter({ hasText: "buildings.activate" })).toContainText("active → inactive");
  } finally {
    await api.dispose();
  }
});
