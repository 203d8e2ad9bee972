import { describe, expect, it } from "vitest";
import { normalizeProspectData } from "./normalize";

describe("ingestion normalization (decisions §8)", () => {
  it.each([
    ["(512) 555-0123", "5125550123"],
    ["+1 512.555.0123", "5125550123"],
    ["1-512-555-0123", "5125550123"],
    ["512 555 0123", "5125550123"],
    ["555-0123", "5550123"],
  ])("phone %s → %s", (input, output) => {
    expect(normalizeProspectData({ phone: input }).phone).toBe(output);
  });

  it("trims and lower-cases email and cuts timestamps to dates", () => {
    expect(
      normalizeProspectData({
        email: "  Rita.Renter@Example.COM ",
        birthdate: "1990-04-02T00:00:00Z",
        lease_start_date: "2026-12-01 08:00:00",
        lease_end_date: "2027-11-30",
        phone: null,
      }),
    ).toEqual({ email: "rita.renter@example.com", birthdate: "1990-04-02", lease_start_date: "2026-12-01", lease_end_date: "2027-11-30", phone: null });
  });

  it("leaves absent fields absent", () => {
    expect(normalizeProspectData({ first_name: "Rita" })).toEqual({ first_name: "Rita" });
  });
});
