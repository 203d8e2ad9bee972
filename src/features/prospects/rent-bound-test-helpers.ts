import { expect } from "vitest";
import { throughDoor } from "../../test/http";

/** The largest `monthly_rent_cents` the Partner API documents for a prospect write (its OpenAPI document). */
export async function largestDocumentedRent(): Promise<number> {
  const doc = await (await throughDoor(new Request("http://localhost/api/openapi.json"))).json();
  const found: number[] = [];
  const walk = (node: unknown): void => {
    if (!node || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "monthly_rent_cents") found.push(...Array.from(JSON.stringify(value).matchAll(/"maximum":(\d+)/g), (match) => Number(match[1])));
      walk(value);
    }
  };
  walk(doc.paths["/partners/{owner_slug}/prospects"].post.requestBody);
  expect(new Set(found).size).toBe(1);
  return found[0];
}
