import { describe, expect, it } from "vitest";
import { clientAddressOf } from "./client-address";

describe("the client address console sign-ins count under (decisions §15)", () => {
  it("is the last X-Forwarded-For entry: the one the front server or the trusted proxy wrote", () => {
    expect(clientAddressOf({ "x-forwarded-for": "203.0.113.7" })).toBe("203.0.113.7");
    expect(clientAddressOf({ "x-forwarded-for": "10.0.0.1, 198.51.100.4 , 203.0.113.7" })).toBe("203.0.113.7");
    expect(clientAddressOf({ "x-forwarded-for": "::ffff:203.0.113.7" })).toBe("203.0.113.7");
  });

  it("counts an IPv6 client by its /64, whichever of its addresses it uses", () => {
    expect(clientAddressOf({ "x-forwarded-for": "2001:db8:1:2::1" })).toBe("2001:db8:1:2::/64");
    expect(clientAddressOf({ "x-forwarded-for": "2001:0db8:0001:0002:ffff:ffff:ffff:fffe" })).toBe("2001:db8:1:2::/64");
    expect(clientAddressOf({ "x-forwarded-for": "::1" })).toBe("0:0:0:0::/64");
    expect(clientAddressOf({ "x-forwarded-for": "fe80::1%eth0" })).toBe("fe80:0:0:0::/64");
  });

  it("is `unknown` without a usable address", () => {
    expect(clientAddressOf(undefined)).toBe("unknown");
    expect(clientAddressOf({})).toBe("unknown");
    expect(clientAddressOf({ "x-forwarded-for": "not an address" })).toBe("unknown");
    expect(clientAddressOf({ "x-forwarded-for": "203.0.113.7, " })).toBe("unknown");
  });
});
