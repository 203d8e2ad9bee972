import { describe, expect, it } from "vitest";
import { STATE_NOT_RECOGNIZED, UNIT_NAME_NOT_DERIVABLE, ZIP_NOT_VALID } from "./messages";

describe("address messages (style §8: partners match on them)", () => {
  it("keeps the exact wording", () => {
    expect(UNIT_NAME_NOT_DERIVABLE).toBe("Unit name is required and could not be derived");
    expect(STATE_NOT_RECOGNIZED).toBe("must be a US state: a two-letter abbreviation or the full name");
    expect(ZIP_NOT_VALID).toBe("must be a 5-digit ZIP code or ZIP+4");
  });
});
