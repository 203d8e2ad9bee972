import { describe, expect, it } from "vitest";
import { POLICY_STATUSES } from "../policies.table";
import { canChangeStatus, dueStatusOn, eventOfStatusChange } from "./rules";

const dated = (status: (typeof POLICY_STATUSES)[number], start = "2026-12-01", end = "2027-11-30") => ({
  status,
  coverageStartDate: start,
  coverageEndDate: end,
});

describe("policy status rules (docs/policies.md)", () => {
  it("keeps canceled and expired final, never goes back to pending, and never 'changes' to the same status", () => {
    for (const to of POLICY_STATUSES) {
      expect(canChangeStatus("canceled", to)).toBe(false);
      expect(canChangeStatus("expired", to)).toBe(false);
      expect(canChangeStatus(to, to)).toBe(false);
      expect(canChangeStatus("active", "pending")).toBe(false);
    }
    expect(canChangeStatus("pending", "upcoming")).toBe(true);
    expect(canChangeStatus("upcoming", "active")).toBe(true);
    expect(canChangeStatus("upcoming", "expired")).toBe(true);
    expect(canChangeStatus("active", "expired")).toBe(true);
    expect(canChangeStatus("active", "canceled")).toBe(true);
  });

  it("emits policy.expired, policy.canceled, and policy.updated for the statuses without an event of their own", () => {
    expect(eventOfStatusChange("expired")).toBe("policy.expired");
    expect(eventOfStatusChange("canceled")).toBe("policy.canceled");
    expect(eventOfStatusChange("active")).toBe("policy.updated");
    expect(eventOfStatusChange("upcoming")).toBe("policy.updated");
  });

  it("makes an upcoming policy active on its start date, not the day before", () => {
    expect(dueStatusOn(dated("upcoming"), "2026-11-30")).toBeUndefined();
    expect(dueStatusOn(dated("upcoming"), "2026-12-01")).toBe("active");
  });

  it("expires the day after the end date (the end date is covered)", () => {
    expect(dueStatusOn(dated("active"), "2027-11-30")).toBeUndefined();
    expect(dueStatusOn(dated("active"), "2027-12-01")).toBe("expired");
  });

  it("takes an upcoming policy whose end already passed straight to expired", () => {
    expect(dueStatusOn(dated("upcoming"), "2028-01-01")).toBe("expired");
  });

  it("leaves pending, canceled and expired policies alone", () => {
    for (const status of ["pending", "canceled", "expired"] as const) expect(dueStatusOn(dated(status), "2030-01-01")).toBeUndefined();
  });
});
