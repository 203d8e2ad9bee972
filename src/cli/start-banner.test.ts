import { describe, expect, it } from "vitest";
import { demoFrameOrigins } from "./demo-roster";
import type { DemoCredentials } from "./demo-seed";
import { demoProspectPayload, renterEmailsLine, startBanner } from "./start-banner";

const demo: DemoCredentials = {
  client_id: "pc_demo",
  client_secret: "s3cret",
  audience: "urn:pis:partner-api:staging",
  owner_slug: "demo-property-management",
  source: "demo_abcd",
  console_email: "operator@demo.local",
  console_password: "pw",
  property_external_id: "demo-barton-springs",
  unit_external_ids: ["demo-unit-101", "demo-unit-102"],
};

describe("the start banner's prospect example (docs/decisions.md, Enrollment: demo seed and local frame origins)", () => {
  it("leases from the first of next month for a year, across a year end", () => {
    const payload = demoProspectPayload(demo, new Date("2026-12-17T09:30:12.345Z"));
    expect(payload).toMatchObject({ lease_start_date: "2027-01-01", lease_end_date: "2027-12-31", terms_accepted_at: "2026-12-17T09:30:12Z" });
    expect(demoProspectPayload(demo, new Date("2027-01-31T00:00:00Z"))).toMatchObject({ lease_start_date: "2027-02-01", lease_end_date: "2028-01-31" });
  });

  it("names the demo source, building and first unit, and has no field the shell would break on", () => {
    const banner = startBanner({ publicBaseUrl: "http://localhost:3000", partnerBaseUrl: "http://localhost:3000/api" }, demo);
    const bodies = [...banner.matchAll(/-d '([^']+)'/g)].map((match) => JSON.parse(match[1]));
    expect(bodies[0]).toEqual({ grant_type: "client_credentials", client_id: "pc_demo", client_secret: "s3cret", audience: demo.audience });
    expect(bodies[1].prospect).toMatchObject({
      source: "demo_abcd",
      property: { external_system_id: "demo-barton-springs" },
      unit: { external_system_id: "demo-unit-101" },
    });
    expect(banner).toContain("curl -s -X POST http://localhost:3000/api/partners/demo-property-management/prospects");
    expect(banner).toContain("curl -s http://localhost:3000/api/partners/demo-property-management/prospects/demo_abcd/demo-renter-1");
  });
});

describe("demoFrameOrigins (decisions §13)", () => {
  it("lists both local origins for the demo owner in staging, nothing in production", () => {
    expect(demoFrameOrigins(4100, "staging")).toEqual(["http://localhost:4100", "http://127.0.0.1:4100"]);
    expect(demoFrameOrigins(4100, "production")).toEqual([]);
  });
});

describe("the start banner's demo page line (decisions §13)", () => {
  const urls = { publicBaseUrl: "http://localhost:3000", partnerBaseUrl: "http://localhost:3000/api", enrollmentBaseUrl: "http://localhost:3000/enroll" };
  it("points a local start at the demo page on the other loopback name, so the frame is cross-origin", () => {
    expect(startBanner({ ...urls, appEnv: "staging" }, demo)).toContain("Demo page       http://127.0.0.1:3000/demo");
  });
  it("is left out in production, where the demo page does not exist", () => {
    expect(startBanner({ ...urls, appEnv: "production" }, demo)).not.toContain("Demo page");
  });
});

describe("the start banner's renter emails line (decisions §19)", () => {
  const base = { publicBaseUrl: "http://localhost:3000", partnerBaseUrl: "http://localhost:3000/api" };
  it("says messages are kept, and where, without SMTP_URL", () => {
    expect(startBanner({ ...base, appEnv: "staging" }, demo)).toContain(
      "Renter emails   kept, not sent (no SMTP_URL): read them at http://localhost:3000/console/messages and on the demo page",
    );
  });
  it("names the relay's host, never its credentials", () => {
    const line = renterEmailsLine({ ...base, smtpUrl: "smtps://mailer:p4ssw0rd@relay.example:465" });
    expect(line).toBe("  Renter emails   sent through smtps://relay.example:465   (each one in http://localhost:3000/console/messages)");
    expect(startBanner({ ...base, smtpUrl: "smtps://mailer:p4ssw0rd@relay.example:465" }, undefined)).not.toContain("p4ssw0rd");
  });
});
