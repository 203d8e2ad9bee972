import { describe, expect, it } from "vitest";
import { checkDetails, parseIsoDay, phoneDigits } from "./details";
import { failsIdentityCheck } from "./identity";
import { FLOW_MESSAGES as M } from "./messages";

const good = { firstName: " Rita ", lastName: "Renter", phone: "(512) 555-0123", birthdate: "1990-04-02", acceptDisclosures: true };
const today = "2026-11-20";

describe("checkDetails (decisions §10 step (1))", () => {
  it("answers the applicant, trimmed, phone as 10 digits", () => {
    expect(checkDetails(good, today)).toEqual({ applicant: { firstName: "Rita", lastName: "Renter", phone: "5125550123", birthdate: "1990-04-02" } });
  });

  it("reports every problem at once, keyed by the input's field names", () => {
    expect(checkDetails({ firstName: " ", lastName: "", phone: "12345", birthdate: "02/04/1990", acceptDisclosures: false }, today)).toEqual({
      errors: {
        firstName: [M.firstNameRequired],
        lastName: [M.lastNameRequired],
        phone: [M.phoneInvalid],
        birthdate: [M.birthdateInvalid],
        acceptDisclosures: [M.disclosuresRequired],
      },
    });
  });

  it("wants a real past date and an adult renter", () => {
    const birth = (birthdate: string) => checkDetails({ ...good, birthdate }, today).errors?.birthdate;
    expect(birth("1990-02-30")).toEqual([M.birthdateInvalid]);
    expect(birth("2026-11-20")).toEqual([M.birthdateFuture]);
    expect(birth("2030-01-01")).toEqual([M.birthdateFuture]);
    expect(birth("2008-11-21")).toEqual([M.birthdateTooYoung]);
    expect(birth("2008-11-20")).toBeUndefined();
    expect(birth("1899-12-31")).toEqual([M.birthdateTooOld]);
  });

  it("phone: exactly ten digits, usual separators allowed, letters refused", () => {
    expect(phoneDigits("512.555.0123")).toBe("5125550123");
    expect(phoneDigits("+1 512 555 0123")).toBeUndefined();
    expect(phoneDigits("51255501234")).toBeUndefined();
    expect(phoneDigits("512555012a")).toBeUndefined();
    expect(parseIsoDay("2024-02-29")).toEqual({ year: 2024, month: 2, day: 29 });
    expect(parseIsoDay("2023-02-29")).toBeUndefined();
  });
});

describe("failsIdentityCheck (decisions §10 staging magic values)", () => {
  it("fails a local part ending in +blocked in staging only", () => {
    expect(failsIdentityCheck("rita+blocked@example.com", "staging")).toBe(true);
    expect(failsIdentityCheck("Rita+Blocked@Example.com", "staging")).toBe(true);
    expect(failsIdentityCheck("rita+blocked@example.com", "production")).toBe(false);
    expect(failsIdentityCheck("rita@blocked.example.com", "staging")).toBe(false);
    expect(failsIdentityCheck(null, "staging")).toBe(false);
  });
});
