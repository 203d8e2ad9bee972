import { describe, expect, it } from "vitest";
import { newClient, newOwner, unique } from "../../test/factories";
import { call } from "../../test/http";
import { receiversOfThisFile } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { MOVE_OUT_MESSAGES } from "./messages";

const receiver = receiversOfThisFile();

async function registerEndpoint({ owner, token }: { owner: { slug: string }; token: string }, url: string) {
  const answer = await call("POST", `/api/partners/${owner.slug}/webhooks/endpoints`, {
    token,
    body: { endpoint: { name: "move-outs", destination_url: url, events: ["move_out.initiated"] } },
  });
  expect(answer.status).toBe(201);
}

async function partner() {
  const client = await newClient();
  const owner = await newOwner(client);
  const token = await client.token();
  const base = `/api/partners/${owner.slug}/move_outs`;
  return {
    owner,
    token,
    post: (body: unknown) => call<{ status_code: number; move_out: Record<string, unknown> & { move_out_id: number } }>("POST", base, { token, body }),
    get: (id: string | number) => call<{ status_code: number; move_out: Record<string, unknown> }>("GET", `${base}/${id}`, { token }),
  };
}

const moveOut = (externalId = unique("mo"), extra: Record<string, unknown> = {}) => ({
  external_id: externalId,
  move_out_date: "2026-12-31",
  property: { address_line_one: "123 Main St Apt 4", address_city: "Austin", address_state: "TX", address_zip: "78701", external_id: "never-registered" },
  unit: { external_id: "u-4", name: "4" },
  residents: [
    { role: "primary", name: "Rita Renter", email: "rita@example.com", external_id: "r-1" },
    { role: "co_resident", name: "Carl Co" },
  ],
  deposit_amount_cents: 150000,
  lease_start: "2025-01-01",
  lease_end: "2026-12-31",
  ...extra,
});

describe("move-outs (spec Move-out rules)", () => {
  it("creates with HTTP and body 201 and status initiated, storing everything exactly as sent", async () => {
    const { post, get } = await partner();
    const body = moveOut("mo-1");
    const created = await post(body);
    expect(created.status).toBe(201);
    expect(created.body.status_code).toBe(201);
    expect(created.body.move_out).toEqual({
      move_out_id: expect.any(Number),
      external_id: "mo-1",
      status: "initiated",
      move_out_date: "2026-12-31",
      property: body.property,
      unit: body.unit,
      residents: body.residents,
      refund_amount_cents: null,
      deposit_amount_cents: 150000,
      lease_start: "2025-01-01",
      lease_end: "2026-12-31",
      created_at: expect.any(String),
    });
    const read = await get(created.body.move_out.move_out_id);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ status_code: 200, move_out: created.body.move_out });
  });

  it("stores every string exactly as sent: spaces, case and all (spec Move-out: stored exactly as sent)", async () => {
    const mine = await partner();
    const { post, get } = mine;
    const hook = await receiver();
    await registerEndpoint(mine, hook.url);
    const externalId = `  Mo-ODD ${unique("Case")}\t`;
    const body = moveOut(externalId, {
      property: { address_line_one: " 123 main ST  Apt 4 ", address_city: "aUSTIN ", address_state: " tx", address_zip: " 78701 ", external_id: " Bldg-9 " },
      unit: { external_id: " U-4 ", name: " 4b " },
      residents: [{ role: "primary", name: "  rita RENTER ", email: " Rita@Example.COM ", external_id: " R-1 " }],
    });
    const created = await post(body);
    expect(created.status).toBe(201);
    const read = await get(created.body.move_out.move_out_id);
    expect(read.body.move_out).toMatchObject({ external_id: externalId, property: body.property, unit: body.unit, residents: body.residents });
    // The raw answer carries the exact strings (no re-encoding or normalization on the way out).
    expect(read.text).toContain(JSON.stringify(externalId));
    expect(read.text).toContain(JSON.stringify(" Rita@Example.COM "));
    // A re-post with the exact key finds it; the trimmed key is another move-out.
    expect((await post(body)).status).toBe(200);
    expect((await post(moveOut(externalId.trim()))).status).toBe(201);
    await runDueJobs();
    const initiated = hook.received
      .map((request) => JSON.parse(request.rawBody))
      .find((event) => event.data.move_out.move_out_id === created.body.move_out.move_out_id);
    expect(initiated.data.move_out.external_id).toBe(externalId);
  });

  it("answers 422 can't be blank for required strings that are only whitespace, and checks emails without their spaces", async () => {
    const { post } = await partner();
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [moveOut(" \t "), { external_id: MOVE_OUT_MESSAGES.blank }],
      [moveOut(undefined, { residents: [{ role: "primary", name: "   " }] }), { "residents.0.name": MOVE_OUT_MESSAGES.blank }],
      [
        moveOut(undefined, { property: { address_line_one: " ", address_city: "Austin", address_state: "TX", address_zip: "78701" } }),
        { "property.address_line_one": MOVE_OUT_MESSAGES.blank },
      ],
      [
        moveOut(undefined, { residents: [{ role: "primary", name: "Rita", email: " not an email " }] }),
        { "residents.0.email": MOVE_OUT_MESSAGES.invalidEmail },
      ],
    ];
    for (const [body, fields] of cases) {
      const answer = await post(body);
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ status_code: 422, error: MOVE_OUT_MESSAGES.invalid, move_out: fields });
    }
  });

  it("returns the existing move-out unchanged with 200 when the external_id is re-posted", async () => {
    const { post } = await partner();
    const first = await post(moveOut("mo-2"));
    const again = await post(moveOut("mo-2", { move_out_date: "2027-01-15", refund_amount_cents: 5000 }));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ status_code: 200, move_out: first.body.move_out });
  });

  it("creates one move-out from concurrent posts of the same external_id", async () => {
    const { post } = await partner();
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(moveOut("mo-race"))));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.move_out.move_out_id)).size).toBe(1);
  });

  it("answers 422 in the specification's shape", async () => {
    const { post } = await partner();
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [moveOut("", {}), { external_id: MOVE_OUT_MESSAGES.blank }],
      [{ ...moveOut(), external_id: undefined }, { external_id: MOVE_OUT_MESSAGES.blank }],
      [moveOut(undefined, { residents: [] }), { residents: MOVE_OUT_MESSAGES.atLeastOneResident }],
      [{ ...moveOut(), residents: undefined }, { residents: MOVE_OUT_MESSAGES.blank }],
      [moveOut(undefined, { residents: [{ role: "landlord", name: "X" }] }), { "residents.0.role": "must be primary or co_resident" }],
      [moveOut(undefined, { residents: [{ role: "primary" }] }), { "residents.0.name": MOVE_OUT_MESSAGES.blank }],
      [
        moveOut(undefined, { property: { address_line_one: "1 A St", address_city: "Austin", address_state: "TX" } }),
        { "property.address_zip": MOVE_OUT_MESSAGES.blank },
      ],
      [{ ...moveOut(), property: undefined }, { property: MOVE_OUT_MESSAGES.blank }],
      [moveOut(undefined, { move_out_date: "12/31/2026" }), { move_out_date: "must be a date in YYYY-MM-DD form" }],
    ];
    for (const [body, fields] of cases) {
      const answer = await post(body);
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ status_code: 422, error: MOVE_OUT_MESSAGES.invalid, move_out: fields });
    }
  });

  it("answers 404 for an absent move-out, a non-numeric id, and another owner's move-out", async () => {
    const mine = await partner();
    const theirs = await partner();
    const created = await theirs.post(moveOut("theirs"));
    for (const id of [999999, "abc", created.body.move_out.move_out_id]) {
      const answer = await mine.get(id);
      expect(answer).toMatchObject({ status: 404, body: { status_code: 404, error: MOVE_OUT_MESSAGES.notFound } });
    }
  });
});
