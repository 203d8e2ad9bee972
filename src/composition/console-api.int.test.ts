import { describe, expect, it } from "vitest";
import { createConsoleApiHandler } from "./console-api";

const operator = { id: 1, email: "ops@example.com", role: "operator" as const };

async function get(user: typeof operator | null, path: string) {
  const handler = createConsoleApiHandler(async () => user);
  const response = await handler(new Request(`http://localhost/console/api/trpc/${path}`));
  return { status: response.status, body: (await response.json()) as { error?: { message: string; data: Record<string, unknown> }; result?: unknown } };
}

describe("the console's tRPC endpoint renders the one error model", () => {
  it("answers an anonymous caller with the error's kind and status, and nothing else", async () => {
    const answer = await get(null, "owners.list");
    expect(answer.status).toBe(401);
    expect(answer.body.error?.message).toBe("Unauthorized");
    expect(answer.body.error?.data).toMatchObject({ kind: "unauthenticated", status: 401, code: "UNAUTHORIZED" });
    expect(answer.body.error?.data.stack).toBeUndefined();
  });

  it("serves a signed-in operator", async () => {
    const answer = await get(operator, "owners.list");
    expect(answer.status).toBe(200);
    expect(answer.body.result).toBeDefined();
  });

  it("names the fields of invalid input", async () => {
    const answer = await get(operator, `ingestion.events?input=${encodeURIComponent(JSON.stringify({ status: "lost" }))}`);
    expect(answer.status).toBe(400);
    expect(answer.body.error?.data).toMatchObject({ code: "BAD_REQUEST", kind: "invalid", status: 422, fields: { status: [expect.any(String)] } });
  });
});
