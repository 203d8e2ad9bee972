import { describe, expect, it } from "vitest";
import { redirectDomainOf } from "./redirect-domains";

describe("redirectDomainOf (decisions §4 source create, §10 Redirect)", () => {
  it("keeps public domain names, lower-cased, with an optional *. prefix", () => {
    expect(redirectDomainOf(" Apply.Example.com ", "production")).toBe("apply.example.com");
    expect(redirectDomainOf("*.example.org", "production")).toBe("*.example.org");
  });

  it("accepts localhost in staging only", () => {
    expect(redirectDomainOf("localhost", "staging")).toBe("localhost");
    expect(redirectDomainOf("LocalHost", "staging")).toBe("localhost");
    expect(redirectDomainOf("localhost", "production")).toBeUndefined();
  });

  it("refuses what is not a domain name", () => {
    for (const bad of ["example", "https://example.com", "example.com/path", "exa mple.com", "*.localhost", "localhost:3000", ""]) {
      expect(redirectDomainOf(bad, "staging")).toBeUndefined();
    }
  });
});
