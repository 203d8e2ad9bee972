import { expect, test } from "@playwright/test";
import { recordAuditRow, screenshots, signInAsOperator } from "./console-helpers";
import { unique } from "./enrollment-helpers";

test("the audit log filters by action and subject in the URL and shows a change's before and after", async ({ page }) => {
  const action = `e2e.check_${unique()}`;
  const subjectId = `s-${unique()}`;
  recordAuditRow({ action, subject: { type: "e2e_subject", id: subjectId }, before: { status: "active" }, after: { status: "suspended" } });
  recordAuditRow({ action, subject: { type: "e2e_subject", id: `other-${unique()}` }, after: { note: "second" } });

  await signInAsOperator(page);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();

  // Keyboard: the filters are reached in order with Tab and submitted with Enter.
  await page.getByLabel("Action").focus();
  await page.keyboard.type(action);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Subject type")).toBeFocused();
  await page.keyboard.type("e2e_subject");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Subject id")).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/console/audit\\?action=${action.replace(".", "\\.")}&subject_type=e2e_subject$`));
  await expect(page.getByRole("row")).toHaveCount(3); // the header and both rows

  // The filtered view is shared by its URL.
  await page.goto(`/console/audit?action=${action}&subject_id=${subjectId}`);
  await expect(page.getByLabel("Subject id")).toHaveValue(subjectId);
  const row = page.getByRole("row").filter({ hasText: subjectId });
  await expect(page.getByRole("row")).toHaveCount(2);
  await expect(row).toContainText("cli:e2e");
  await expect(row).toContainText(action);
  await screenshots(page, "console-audit");

  const open = row.getByRole("button", { name: "View changes" });
  await open.click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("region", { name: "Before" })).toContainText('"status": "active"');
  await expect(dialog.getByRole("region", { name: "After" })).toContainText('"status": "suspended"');
  await screenshots(page, "console-audit-dialog");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();

  await page.getByRole("button", { name: "Clear" }).click();
  await expect(page).toHaveURL(/\/console\/audit$/);
});

test("an unknown action shows the empty state", async ({ page }) => {
  await signInAsOperator(page);
  await page.goto(`/console/audit?action=no.such_${unique()}`);
  await expect(page.getByText("No changes recorded match.")).toBeVisible();
});
