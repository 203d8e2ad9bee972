import { expect, test } from "@playwright/test";

// Next.js answers a path with broken percent-encoding with a bare 500 before any route runs;
// src/proxy.ts refuses it with a 400 in the gateways' body shape on every surface.
for (const path of ["/api/%ZZ", "/api/partners/%ZZ/prospects", "/ingest/%E0%A4%A", "/documents/%ZZ.zip", "/enroll/%ZZ/a/b/c", "/console/%C3%28"]) {
  test(`a path with broken percent-encoding answers 400, never 500: ${path}`, async ({ request }) => {
    const answer = await request.get(path);
    expect(answer.status()).toBe(400);
    expect(await answer.json()).toEqual({ status_code: 400, error: "Request path is not valid percent-encoding" });
  });
}

test("well-formed encoded paths still reach their routes", async ({ request }) => {
  const answer = await request.get("/api/partners/no%20such%20owner/prospects/a/b");
  expect(answer.status()).toBe(401);
  expect(await answer.json()).toEqual({ message: "Unauthorized" });
});
