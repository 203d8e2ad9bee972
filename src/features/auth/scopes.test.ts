import { describe, expect, it } from "vitest";
import { parseScopeParam } from "./scopes";

describe("parseScopeParam", () => {
  it("splits on whitespace, deduplicates and separates unknown names", () => {
    expect(parseScopeParam("partner", "  owners:write prospects:read owners:write bogus ")).toEqual({
      scopes: ["owners:write", "prospects:read"],
      unknown: ["bogus"],
    });
  });

  it("treats a scope of the other gateway as unknown", () => {
    expect(parseScopeParam("ingestion", "events:write owners:write")).toEqual({ scopes: ["events:write"], unknown: ["owners:write"] });
  });
});
