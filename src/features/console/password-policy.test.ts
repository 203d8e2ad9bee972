import { describe, expect, it } from "vitest";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, passwordProblem } from "./passwords";

describe("the console password policy (docs/decisions.md, Console access part B)", () => {
  it("accepts 12 to 200 characters that are not the email address", () => {
    expect(passwordProblem("x".repeat(PASSWORD_MIN_LENGTH), "a@example.com")).toBeUndefined();
    expect(passwordProblem("y".repeat(PASSWORD_MAX_LENGTH), "a@example.com")).toBeUndefined();
    expect(passwordProblem("correct horse battery", "a@example.com")).toBeUndefined();
  });

  it("refuses a short or overlong password and the email itself, whatever its case", () => {
    expect(passwordProblem("x".repeat(PASSWORD_MIN_LENGTH - 1), "a@example.com")).toBe("Password must be at least 12 characters");
    expect(passwordProblem("y".repeat(PASSWORD_MAX_LENGTH + 1), "a@example.com")).toBe("Password must be at most 200 characters");
    expect(passwordProblem(" Long.Name@Example.com", "long.name@example.com")).toBe("Password must not be the email address");
  });
});
