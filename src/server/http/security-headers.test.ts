import { describe, expect, it } from "vitest";
import { baseSecurityHeaders, pageSecurityHeaders } from "./security-headers";

describe("page security headers (decisions §15)", () => {
  it("forbid framing and sniffing and keep the referrer to the origin, without HSTS over HTTP", () => {
    expect(pageSecurityHeaders("http://localhost:3000")).toEqual({
      "Content-Security-Policy": "frame-ancestors 'none'",
      "X-Frame-Options": "DENY",
      "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    });
  });

  it("add HSTS when the public base URL is HTTPS", () => {
    expect(pageSecurityHeaders("https://pis.example.com")["Strict-Transport-Security"]).toBe("max-age=63072000; includeSubDomains");
    expect(baseSecurityHeaders("HTTPS://pis.example.com")["Strict-Transport-Security"]).toBe("max-age=63072000; includeSubDomains");
    expect(baseSecurityHeaders("http://pis.example.com")["Strict-Transport-Security"]).toBeUndefined();
  });

  it("leave framing to the page when it has its own rule (enrollment)", () => {
    const headers = baseSecurityHeaders("https://pis.example.com");
    expect(headers["X-Frame-Options"]).toBeUndefined();
    expect(headers["Content-Security-Policy"]).toBeUndefined();
  });
});
