import { describe, expect, it } from "vitest";
import { isBlockedAddress } from "./destination-guard";

describe("webhook destination guard", () => {
  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.20.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "::1",
    "fe80::1",
    "fd00::1",
    "::ffff:127.0.0.1",
    "not-an-ip",
  ])("blocks %s", (address) => expect(isBlockedAddress(address)).toBe(true));
  it.each(["8.8.8.8", "93.184.216.34", "2606:4700::6810:85e5", "::ffff:8.8.8.8"])("allows %s", (address) => expect(isBlockedAddress(address)).toBe(false));
});
