import { describe, expect, it } from "vitest";
import { normalizeZip } from "./zip";

describe("normalizeZip (spec Property and Limits: ZIP+4 truncated to 5 digits)", () => {
  it.each([
    ["12345", "12345"],
    ["78701", "78701"],
    ["02134", "02134"],
    [" 12345 ", "12345"],
    ["12345-6789", "12345"],
    ["123456789", "12345"],
    [" 12345-6789\t", "12345"],
    ["00501", "00501"],
  ])("%j → %s", (input, zip) => {
    expect(normalizeZip(input)).toBe(zip);
  });

  it.each([
    ["1234"],
    ["123456"],
    ["12345-"],
    ["12345-678"],
    ["12345-67890"],
    ["1234567890"],
    ["12345 6789"],
    ["ABCDE"],
    ["1234A"],
    ["12 345"],
    [""],
    ["K1A 0B1"],
  ])("%j → null", (input) => {
    expect(normalizeZip(input)).toBeNull();
  });
});
