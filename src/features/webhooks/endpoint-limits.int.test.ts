import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { grant, newClient, unique } from "../../test/factories";
import { call } from "../../test/http";
import { MAX_ENDPOINTS_PER_SUBSCRIBER } from "./endpoints";
import { WEBHOOK_MESSAGES } from "./messages";
import { createProvider } from "./providers";
import { webhookPartner } from "./webhook-test-helpers";

type Listed = { endpoints: Array<{ id: string }> };
const body = (name: string) => ({ endpoint: { name, destination_url: "https://localhost:9/hook", events: ["prospect.ready"] } });

/** Fills `path` up to `held` endpoints one by one, then sends `parallel` creates at once and answers their statuses. */
async function fillThenRace(path: string, token: string, held: number, parallel: number) {
  for (let n = 0; n < held; n++) expect((await call("POST", path, { token, body: body(`seq-${n}`) })).status).toBe(201);
  return Promise.all(Array.from({ length: parallel }, (_, n) => call("POST", path, { token, body: body(`race-${n}`) })));
}

describe("webhook endpoint caps (decisions §15)", () => {
  it("holds an owner's endpoints of one client to 50 under concurrent creates; a deleted one frees its place; another client keeps its own", async () => {
    expect(MAX_ENDPOINTS_PER_SUBSCRIBER).toBe(50);
    const { base, token, owner } = await webhookPartner();
    const answers = await fillThenRace(base, token, 45, 10);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 201, 201, 422, 422, 422, 422, 422]);
    const refused = answers.find((answer) => answer.status === 422);
    expect(refused?.body).toEqual({ status_code: 422, error: WEBHOOK_MESSAGES.tooManyOwnerEndpoints(50), errors: {} });
    const listed = (await call<Listed>("GET", base, { token })).body.endpoints;
    expect(listed).toHaveLength(50);

    expect((await call("POST", base, { token, body: body("one-too-many") })).status).toBe(422);
    expect((await call("DELETE", `${base}/${listed[0].id}`, { token })).status).toBe(200);
    expect((await call("POST", base, { token, body: body("in-its-place") })).status).toBe(201);
    expect((await call<Listed>("GET", base, { token })).body.endpoints).toHaveLength(50);

    // Another partner of the same owner is not held back by the first one's endpoints.
    const other = await newClient();
    await grant(other, owner.id);
    expect((await call("POST", base, { token: await other.token(), body: body("other-partner") })).status).toBe(201);
  });

  it("holds a provider subscription to 50 endpoints under concurrent creates", async () => {
    const { client, token } = await webhookPartner();
    const code = unique("cap");
    await createProvider(await getDb(), { code, clientId: client.clientId });
    const path = `/api/partners/providers/${code}/webhooks/endpoints`;
    const answers = await fillThenRace(path, token, 46, 8);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 201, 201, 201, 422, 422, 422, 422]);
    expect(answers.find((answer) => answer.status === 422)?.body).toEqual({
      status_code: 422,
      error: WEBHOOK_MESSAGES.tooManyProviderEndpoints(50),
      errors: {},
    });
    expect((await call<Listed>("GET", path, { token })).body.endpoints).toHaveLength(50);
  });
});
