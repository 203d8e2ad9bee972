import { expect, type Page, test } from "@playwright/test";
import { signInAsOperator } from "./console-helpers";
import { demoCredentials } from "./helpers";

/** The demo partner's calls through the Partner API (the demo client may create owners). */
async function partner(page: Page) {
  const demo = demoCredentials();
  const token = await page.request.post("/api/token", {
    data: { grant_type: "client_credentials", client_id: demo.client_id, client_secret: demo.client_secret, audience: demo.audience },
  });
  expect(token.status()).toBe(200);
  const headers = { authorization: `Bearer ${(await token.json()).access_token}` };
  return {
    createOwner: async (name: string) => {
      const answer = await page.request.post("/api/partners/property_owners", { headers, data: { external_org_id: `org-${name}`, name } });
      expect(answer.status()).toBe(201);
      return (await answer.json()).property_owner.owner_slug as string;
    },
    registerEndpoint: async (slug: string, name: string) => {
      const answer = await page.request.post(`/api/partners/${slug}/webhooks/endpoints`, {
        headers,
        data: { endpoint: { name, destination_url: "https://localhost:9/hook", events: ["prospect.created"] } },
      });
      expect(answer.status()).toBe(201);
    },
    endpointNames: async (slug: string) => {
      const answer = await page.request.get(`/api/partners/${slug}/webhooks/endpoints`, { headers });
      expect(answer.status()).toBe(200);
      return ((await answer.json()).endpoints as Array<{ name: string }>).map((endpoint) => endpoint.name).sort();
    },
  };
}

async function pick(page: Page, label: string, slug: string) {
  await page.getByRole("combobox", { name: label }).click();
  await page.getByRole("option", { name: new RegExp(slug) }).click();
}

test("an operator merges a duplicate owner into the survivor, and the partner's old slug answers for the survivor", async ({ page }) => {
  const api = await partner(page);
  const tag = Date.now().toString(36);
  const duplicate = await api.createOwner(`Dup ${tag}`);
  const survivor = await api.createOwner(`Survivor ${tag}`);
  await api.registerEndpoint(duplicate, "duplicate's hook");
  await api.registerEndpoint(survivor, "survivor's hook");
  expect(await api.endpointNames(duplicate)).toEqual(["duplicate's hook"]);

  await signInAsOperator(page);
  await page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Owners" }).click();
  await page.getByRole("link", { name: "Merge duplicate owners" }).click();
  await expect(page.getByRole("heading", { name: "Merge duplicate owners" })).toBeVisible();

  await pick(page, "Duplicate (merged away)", duplicate);
  await pick(page, "Survivor (keeps everything)", survivor);
  await page.getByRole("button", { name: "Preview merge" }).click();
  const preview = page.getByRole("region", { name: "Merge preview" });
  await expect(preview.getByRole("heading", { name: `Preview: ${duplicate} into ${survivor}` })).toBeVisible();
  await expect(preview.getByText("Webhook endpoints")).toBeVisible();
  // The demo client was granted both owners: the one conflict, and how it is resolved.
  await expect(preview.getByRole("region", { name: "Conflicts" }).getByRole("row").filter({ hasText: "duplicate_grant" })).toContainText(
    "Kept once on the survivor",
  );

  await preview.getByRole("button", { name: "Merge…" }).click();
  const dialog = page.getByRole("dialog");
  const confirm = dialog.getByRole("button", { name: "Merge owners" });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type ${duplicate} to confirm`).fill(duplicate);
  await confirm.click();
  await expect(page.getByRole("main").getByRole("status")).toContainText(`Merged ${duplicate} into ${survivor}`);
  await expect(page.getByRole("region", { name: "Merges" }).getByRole("row").filter({ hasText: duplicate })).toContainText(survivor);

  // The partner's old slug now acts on the survivor: both endpoints, under either slug.
  const both = ["duplicate's hook", "survivor's hook"];
  expect(await api.endpointNames(duplicate)).toEqual(both);
  expect(await api.endpointNames(survivor)).toEqual(both);
});
