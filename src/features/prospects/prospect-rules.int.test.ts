import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "../../server/db/client";
import { call } from "../../test/http";
import { runDueJobs } from "../../test/jobs";
import { signRequest } from "../auth/request-signature";
import { address } from "../roster/roster-test-helpers";
import { REASONS } from "./eligibility/reasons";
import { decide } from "./prospect__check_eligibility";
import { completeProspect, prospectPartner } from "./prospect-test-helpers";
import { prospects } from "./prospects.table";

describe("resolution by PMS identifiers (spec Prospect: pms_* fields for owners synced from a PMS)", () => {
  it("resolves the building and unit carrying the prospect's PMS identifiers, and only the building when the unit is unknown", async () => {
    const { post, get, source, base, token } = await prospectPartner();
    await call("POST", `${base}/properties`, {
      token,
      body: [{ external_system_id: "b-pms", building_name: "Synced", address: address("20 Oak St"), pms_type: "pms_one", pms_property_id: "PP-9" }],
    });
    await call("POST", `${base}/units`, { token, body: [{ external_system_id: "u-pms", property_external_id: "b-pms", name: "2A", pms_unit_id: "PU-2A" }] });
    const pms = { property: undefined, unit: undefined, pms_type: "pms_one", pms_property_id: "PP-9" };
    await post(completeProspect(source, "pms-both", { ...pms, pms_unit_id: "PU-2A" }));
    await post(completeProspect(source, "pms-no-unit", { ...pms, pms_unit_id: "PU-404" }));
    await post(completeProspect(source, "pms-unknown", { ...pms, pms_property_id: "PP-404", pms_unit_id: "PU-2A" }));
    await runDueJobs();
    expect((await get("pms-both")).body.prospect).toMatchObject({ status: "ready", enrollment_url: expect.stringContaining("/enroll/") });
    const noUnit = (await get("pms-no-unit")).body.prospect;
    expect(noUnit).toMatchObject({ status: "ready", enrollment_url: null, hosted_enrollment_url: null });
    expect(noUnit.sdi_ineligibility_reasons).toEqual([REASONS.unitMissing]);
    expect((await get("pms-unknown")).body.prospect.sdi_ineligibility_reasons).toEqual(expect.arrayContaining([REASONS.propertyMissing]));
  });
});

describe("enrollment links (spec Prospect response fields)", () => {
  it("are the same expedited link twice when the source's flow is expedited", async () => {
    const { post, get, source, owner } = await prospectPartner({ flow: "expedited" });
    await post(completeProspect(source, "exp-1"));
    await runDueJobs();
    const prospect = (await get("exp-1")).body.prospect;
    expect(new URL(String(prospect.enrollment_url)).pathname).toBe(`/enroll/expedited/${owner.slug}/${source}/exp-1`);
    expect(prospect.hosted_enrollment_url).toBe(prospect.enrollment_url);
  });

  it("are withheld on an inactive building, with the reason", async () => {
    const { post, get, source, base, token } = await prospectPartner();
    await call("POST", `${base}/properties`, { token, body: [{ external_system_id: "b1", active: false }] });
    await post(completeProspect(source, "inactive-1"));
    await runDueJobs();
    const prospect = (await get("inactive-1")).body.prospect;
    expect(prospect).toMatchObject({ status: "ready", enrollment_url: null, hosted_enrollment_url: null });
    expect(prospect.sdi_ineligibility_reasons).toEqual([REASONS.propertyInactive]);
  });
});

describe("background eligibility (spec Prospect status)", () => {
  it("ignores a job for an older version of the prospect: the newer write's job decides", async () => {
    const { post, source } = await prospectPartner();
    const first = (await post(completeProspect(source, "stale-1"))).body.prospect;
    await post(completeProspect(source, "stale-1", { monthly_rent_cents: 160000 }));
    const db = await getDb();
    const [current] = await db.select().from(prospects).where(eq(prospects.id, first.id));
    expect(current.version).toBeGreaterThan(0);
    expect(await db.transaction((tx) => decide(tx, first.id, current.version - 1))).toBeUndefined();
    expect((await db.select().from(prospects).where(eq(prospects.id, first.id)))[0]).toMatchObject({ status: "processing", eligibility: null });
    expect(await db.transaction((tx) => decide(tx, first.id, current.version))).toMatchObject({ status: "ready" });
  });
});

describe("request signatures on the prospect and move-out routes (decisions §6)", () => {
  it("refuses unsigned and badly signed writes from a client that must sign, and accepts signed ones", async () => {
    const { client, source, base, token } = await prospectPartner({ requireSignature: true });
    const INVALID = { status_code: 401, error: "Invalid request signature" };
    const send = (path: string, body: unknown, sign: "none" | "good" | "bad") => {
      const raw = JSON.stringify(body);
      const headers: Record<string, string> = {};
      if (sign !== "none") {
        const signature = signRequest(client.secret, { method: "POST", pathWithQuery: path, rawBody: raw });
        // "bad": the digest's first hex digit changed to another one.
        headers["x-request-signature"] = sign === "good" ? signature : signature.replace(/v1=(.)/, (_, digit) => `v1=${digit === "0" ? "1" : "0"}`);
      }
      return call("POST", path, { token, rawBody: raw, headers });
    };
    const prospect = { prospect: completeProspect(source, "signed-1") };
    expect(await send(`${base}/prospects`, prospect, "none")).toMatchObject({ status: 401, body: INVALID });
    expect(await send(`${base}/prospects`, prospect, "bad")).toMatchObject({ status: 401, body: INVALID });
    expect(await send(`${base}/prospects`, prospect, "good")).toMatchObject({ status: 200, body: { status_code: 201 } });
    const moveOut = {
      external_id: "mo-signed",
      residents: [{ first_name: "Rita", last_name: "Renter", email: "rita@example.com", role: "primary" }],
      address: { line_one: "10 Main St", city: "Austin", state: "TX", zip: "78701" },
    };
    expect(await send(`${base}/move_outs`, moveOut, "none")).toMatchObject({ status: 401, body: INVALID });
  });

  it("accepts the hex digest in upper case as well as lower case (docs/decisions.md, Authentication)", async () => {
    const { client, source, base, token } = await prospectPartner({ requireSignature: true });
    const path = `${base}/prospects`;
    const raw = JSON.stringify({ prospect: completeProspect(source, "signed-upper") });
    const signature = signRequest(client.secret, { method: "POST", pathWithQuery: path, rawBody: raw });
    const upper = signature.replace(/v1=([0-9a-f]+)$/, (_, hex: string) => `v1=${hex.toUpperCase()}`);
    expect(upper).not.toBe(signature);
    const answer = await call("POST", path, { token, rawBody: raw, headers: { "x-request-signature": upper } });
    expect(answer).toMatchObject({ status: 200, body: { status_code: 201 } });
  });
});
