import { describe, expect, it } from "vitest";
import { frameOriginOf } from "./frame-origins";

describe("frameOriginOf (decisions §10: operator frame origins)", () => {
  it("accepts HTTPS origins in both environments, normalized", () => {
    for (const env of ["staging", "production"] as const) {
      expect(frameOriginOf("https://Portal.Example.com", env)).toBe("https://portal.example.com");
      expect(frameOriginOf("https://portal.example.com:8443/", env)).toBe("https://portal.example.com:8443");
    }
  });

  it("accepts http://localhost[:port] and http://127.0.0.1[:port] in staging only", () => {
    expect(frameOriginOf("http://localhost:3000", "staging")).toBe("http://localhost:3000");
    expect(frameOriginOf("http://LOCALHOST", "staging")).toBe("http://localhost");
    expect(frameOriginOf("http://127.0.0.1:3000/", "staging")).toBe("http://127.0.0.1:3000");
    expect(frameOriginOf("http://localhost:3000", "production")).toBeUndefined();
    expect(frameOriginOf("http://127.0.0.1:3000", "production")).toBeUndefined();
  });

  it("refuses other HTTP hosts, paths, credentials, queries and other schemes even in staging", () => {
    for (const value of [
      "http://portal.example.com",
      "http://localhost.example.com",
      "http://127.0.0.2:3000",
      "http://[::1]:3000",
      "http://localhost:3000/demo",
      "http://user:pw@localhost:3000",
      "http://localhost:3000?x=1",
      "http://localhost:3000#x",
      "ws://localhost:3000",
      "localhost:3000",
      "*",
      "",
    ]) {
      expect(frameOriginOf(value, "staging"), value).toBeUndefined();
    }
  });
});
