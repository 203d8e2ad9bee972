import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { newClient } from "../../test/factories";
import { call } from "../../test/http";
import { issueAccessToken } from "../auth/tokens";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";
import { prospects } from "../prospects/prospects.table";

afterEach(() => {
  process.env.APP_ENV = "staging";
  resetConfig();
});

describe("DELETE /residents/reset (spec Reset rule)", () => {
  it("clears the renter's prospects under the owner and is idempotent", async () => {
    const { post, owner, token, source } = await prospectPartner();
    const first = await post(completeProspect(source, "r-1", { email: "Reset.Me@example.com" }));
    const second = await post(completeProspect(source, "r-2", { email: "reset.me@example.com" }));
    const kept = await post(completeProspect(source, "r-3", { email: "someone.else@example.com" }));
    const path = `/api/residents/reset?email=${encodeURIComponent("RESET.me@example.com")}&owner_slug=${owner.slug}`;
    const answer = await call("DELETE", path, { token });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      status_code: 200,
      user_ids: [],
      prospect_ids: [first.body.prospect.id, second.body.prospect.id].sort((a, b) => a - b),
      policy_ids: [],
      resident_ids: [],
    });
    const remaining = await (await getDb()).select({ id: prospects.id }).from(prospects).where(eq(prospects.ownerId, owner.id));
    expect(remaining.map((row) => row.id)).toEqual([kept.body.prospect.id]);
    const again = await call("DELETE", path, { token });
    expect(again.body).toEqual({ status_code: 200, user_ids: [], prospect_ids: [], policy_ids: [], resident_ids: [] });
  });

  it("requires both query parameters", async () => {
    const { owner, token } = await prospectPartner();
    const noEmail = await call("DELETE", `/api/residents/reset?owner_slug=${owner.slug}`, { token });
    expect(noEmail).toMatchObject({ status: 422, body: { status_code: 422, error: "Reset request is invalid", errors: { email: ["is required"] } } });
    const noOwner = await call("DELETE", "/api/residents/reset?email=a%40example.com", { token });
    expect(noOwner).toMatchObject({ status: 422, body: { errors: { owner_slug: ["is required"] } } });
    const badEmail = await call("DELETE", `/api/residents/reset?email=nope&owner_slug=${owner.slug}`, { token });
    expect(badEmail.status).toBe(422);
  });

  it("checks the scope and the owner grant", async () => {
    const { owner } = await prospectPartner();
    const stranger = await newClient();
    const path = `/api/residents/reset?email=a%40example.com&owner_slug=${owner.slug}`;
    expect((await call("DELETE", path, { token: await stranger.token() })).status).toBe(403);
    const noScope = await newClient({ scopes: ["prospects:read"] });
    expect(await call("DELETE", path, { token: await noScope.token() })).toMatchObject({ status: 403, body: { message: "Forbidden" } });
  });

  it("answers 404 in production", async () => {
    const { owner, client } = await prospectPartner();
    process.env.APP_ENV = "production";
    resetConfig();
    // Production has its own audience: mint a production token for the same client.
    const productionToken = await issueAccessToken({ clientId: client.clientId, gateway: "partner", scopes: ["residents:reset"] });
    const answer = await call("DELETE", `/api/residents/reset?email=a%40example.com&owner_slug=${owner.slug}`, { token: productionToken });
    expect(answer.status).toBe(404);
  });
});
