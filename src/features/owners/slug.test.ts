import { describe, expect, it } from "vitest";
import { slugify } from "./service";

describe("slugify", () => {
  it.each([
    ["Maple Street Holdings", "maple-street-holdings"],
    ["  Café Résidences, LLC  ", "cafe-residences-llc"],
    ["###", "owner"],
    ["A".repeat(80), "a".repeat(48)],
    ["Oak & Pine -- Group", "oak-pine-group"],
  ])("%s → %s", (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });
});
