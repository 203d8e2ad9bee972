import { describe, expect, it } from "vitest";
import { redirectTarget } from "./redirect";

const domains = ["apply.example.com", "*.example.org", "localhost"];

describe("redirectTarget (decisions §10 Redirect)", () => {
  it("follows HTTPS URLs on a redirect domain or a subdomain of it, appending the state", () => {
    expect(redirectTarget("https://apply.example.com/done", domains, "completed", "production")).toBe("https://apply.example.com/done?status=completed");
    expect(redirectTarget("https://eu.apply.example.com/", domains, "declined", "production")).toBe("https://eu.apply.example.com/?status=declined");
    expect(redirectTarget("https://portal.example.org/x", domains, "blocked", "production")).toBe("https://portal.example.org/x?status=blocked");
  });

  it("keeps the URL's own query and fragment, and replaces a status it carried", () => {
    expect(redirectTarget("https://apply.example.com/done?ref=42&a=b#top", domains, "completed", "production")).toBe(
      "https://apply.example.com/done?ref=42&a=b&status=completed#top",
    );
    expect(redirectTarget("https://apply.example.com/?status=completed", domains, "declined", "production")).toBe("https://apply.example.com/?status=declined");
  });

  it("ignores other hosts, look-alikes and a wildcard's bare domain", () => {
    for (const url of [
      "https://evil.com/",
      "https://apply.example.com.evil.com/",
      "https://evilapply.example.com/",
      "https://example.com/",
      "https://example.org/",
      "https://apply.example.com@evil.com/",
      "https://user:pw@apply.example.com/",
    ]) {
      expect(redirectTarget(url, domains, "completed", "staging")).toBeNull();
    }
  });

  it("requires HTTPS, except http://localhost in staging", () => {
    expect(redirectTarget("http://apply.example.com/", domains, "completed", "staging")).toBeNull();
    expect(redirectTarget("http://localhost:4000/back?x=1", domains, "completed", "staging")).toBe("http://localhost:4000/back?x=1&status=completed");
    expect(redirectTarget("http://localhost:4000/back", domains, "completed", "production")).toBeNull();
    expect(redirectTarget("https://localhost:4000/back", domains, "blocked", "staging")).toBe("https://localhost:4000/back?status=blocked");
    expect(redirectTarget("javascript:alert(1)", domains, "completed", "staging")).toBeNull();
    expect(redirectTarget("ftp://apply.example.com/", domains, "completed", "staging")).toBeNull();
  });

  it("answers null without a URL, with a malformed one, or without redirect domains", () => {
    expect(redirectTarget(undefined, domains, "completed", "staging")).toBeNull();
    expect(redirectTarget("", domains, "completed", "staging")).toBeNull();
    expect(redirectTarget("not a url", domains, "completed", "staging")).toBeNull();
    expect(redirectTarget("/relative/path", domains, "completed", "staging")).toBeNull();
    expect(redirectTarget("https://apply.example.com/", [], "completed", "staging")).toBeNull();
  });
});
