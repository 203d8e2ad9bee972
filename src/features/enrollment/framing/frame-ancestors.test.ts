import { describe, expect, it } from "vitest";
import { frameOriginOf } from "../frame-origins";
import { frameAncestorsHeader, HOSTED_FRAMING_HEADERS, plainOrigin } from "./frame-ancestors";

describe("plainOrigin (decisions §10 Framing: origins only)", () => {
  it("canonicalizes HTTPS origins", () => {
    expect(plainOrigin("https://Portal.Example.com")).toBe("https://portal.example.com");
    expect(plainOrigin(" https://portal.example.com/ ")).toBe("https://portal.example.com");
    expect(plainOrigin("https://portal.example.com:443")).toBe("https://portal.example.com");
    expect(plainOrigin("https://portal.example.com:8443")).toBe("https://portal.example.com:8443");
    expect(plainOrigin("https://bücher.example")).toBe("https://xn--bcher-kva.example");
    expect(plainOrigin("https://[::1]:8443")).toBe("https://[::1]:8443");
  });

  it("accepts HTTP on loopback hosts only (staging's local demos and tests)", () => {
    expect(plainOrigin("http://localhost:3211")).toBe("http://localhost:3211");
    expect(plainOrigin("http://127.0.0.1:3211")).toBe("http://127.0.0.1:3211");
    expect(plainOrigin("http://portal.example.com")).toBeUndefined();
  });

  it.each([
    "'self'",
    "'none'",
    "*",
    "https:",
    "https://",
    "https://*.example.com",
    "*.example.com",
    "portal.example.com",
    "https://portal.example.com/path",
    "https://portal.example.com/?q=1",
    "https://portal.example.com/#x",
    "https://user:pw@portal.example.com",
    "https://portal.example.com;script-src *",
    "https://a.example.com https://b.example.com",
    "https://a.example.com,b.example.com",
    "javascript://portal.example.com",
    "data:text/html,x",
    "ftp://portal.example.com",
    "https://portal.example.com:99999",
    "",
  ])("refuses %j", (value) => {
    expect(plainOrigin(value)).toBeUndefined();
  });
});

describe("frameAncestorsHeader (decisions §10 Framing)", () => {
  it("lists the union of both lists, normalized, deduplicated and sorted", () => {
    expect(
      frameAncestorsHeader(
        ["https://portal.example.com", "https://B.example.com"],
        ["https://Portal.Example.com:443/", "https://a.example.com", "https://b.example.com"],
      ),
    ).toBe("frame-ancestors https://a.example.com https://b.example.com https://portal.example.com");
  });

  it("takes either list alone", () => {
    expect(frameAncestorsHeader(["https://owner.example.com"], [])).toBe("frame-ancestors https://owner.example.com");
    expect(frameAncestorsHeader([], ["https://operator.example.com"])).toBe("frame-ancestors https://operator.example.com");
  });

  it("answers 'none' when both lists are empty or hold nothing valid", () => {
    expect(frameAncestorsHeader([], [])).toBe("frame-ancestors 'none'");
    expect(frameAncestorsHeader(["'self'", "*", "https:"], ["https://x.example.com/path"])).toBe("frame-ancestors 'none'");
  });

  it("drops invalid entries, never 'self', wildcards, scheme sources or injected directives", () => {
    const header = frameAncestorsHeader(
      ["'self'", "*", "https:", "https://ok.example.com", "https://x.example.com; script-src *"],
      [null as unknown as string],
    );
    expect(header).toBe("frame-ancestors https://ok.example.com");
  });

  it("hosted pages can never be framed", () => {
    expect(HOSTED_FRAMING_HEADERS).toEqual({ "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY" });
  });
});

describe("frameOriginOf (decisions §10 Framing: staging's loopback exception)", () => {
  it("accepts HTTPS origins everywhere and loopback HTTP in staging only", () => {
    expect(frameOriginOf("https://Portal.Example.com", "production")).toBe("https://portal.example.com");
    expect(frameOriginOf("http://127.0.0.1:3219", "staging")).toBe("http://127.0.0.1:3219");
    expect(frameOriginOf("http://localhost", "staging")).toBe("http://localhost");
    expect(frameOriginOf("http://127.0.0.1:3219", "production")).toBeUndefined();
    expect(frameOriginOf("http://portal.example.com", "staging")).toBeUndefined();
    expect(frameOriginOf("https://portal.example.com/path", "staging")).toBeUndefined();
  });
});
