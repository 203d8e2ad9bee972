import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { isValidRequestSignature, signRequest } from "./request-signature";

const request = { method: "post", pathWithQuery: "/api/partners/acme/prospects?x=1", rawBody: '{"prospect":{}}' };
const now = new Date("2026-11-22T12:00:00Z");

describe("request signatures (decisions §6)", () => {
  it("signs `<t>.<METHOD>.<path with query>.<raw body>` with HMAC-SHA256 of the client secret", () => {
    const header = signRequest("s3cret", request, now);
    const t = Math.floor(now.getTime() / 1000);
    const expected = createHmac("sha256", "s3cret").update(`${t}.POST./api/partners/acme/prospects?x=1.{"prospect":{}}`).digest("hex");
    expect(header).toBe(`t=${t},v1=${expected}`);
    expect(isValidRequestSignature(header, "s3cret", request, now)).toBe(true);
  });

  it.each([
    ["another secret", (h: string) => ({ header: h, secret: "other", at: now })],
    ["301 seconds old", (h: string) => ({ header: h, secret: "s3cret", at: new Date(now.getTime() + 301_000) })],
    ["301 seconds ahead", (h: string) => ({ header: h, secret: "s3cret", at: new Date(now.getTime() - 301_000) })],
    ["no v1", (h: string) => ({ header: h.split(",")[0], secret: "s3cret", at: now })],
    ["garbage", () => ({ header: "v1=abc", secret: "s3cret", at: now })],
    ["upper-case keys", (h: string) => ({ header: h.replace("t=", "T=").replace("v1=", "V1="), secret: "s3cret", at: now })],
    ["a digest of the wrong length", (h: string) => ({ header: `${h}0`, secret: "s3cret", at: now })],
  ])("refuses a signature with %s", (_name, mutate) => {
    const { header, secret, at } = mutate(signRequest("s3cret", request, now));
    expect(isValidRequestSignature(header, secret, request, at)).toBe(false);
  });

  it("accepts the hex digest in either letter case", () => {
    const header = signRequest("s3cret", request, now);
    const upper = header.replace(/v1=([0-9a-f]+)$/, (_, hex: string) => `v1=${hex.toUpperCase()}`);
    const mixed = header.replace(/v1=([0-9a-f]+)$/, (_, hex: string) => `v1=${hex.slice(0, 32).toUpperCase()}${hex.slice(32)}`);
    expect(isValidRequestSignature(upper, "s3cret", request, now)).toBe(true);
    expect(isValidRequestSignature(mixed, "s3cret", request, now)).toBe(true);
  });

  it("accepts a signature exactly 300 seconds old", () => {
    const header = signRequest("s3cret", request, now);
    expect(isValidRequestSignature(header, "s3cret", request, new Date(now.getTime() + 300_000))).toBe(true);
  });
});
