import { UNIT_DESIGNATORS } from "./designators";
import { canonicalStreet, splitDesignator, type Token, tokenize } from "./street";

export type UnitNameInput = {
  line_one?: string | null;
  line_two?: string | null;
  buildingStreet?: string | null;
  pms_unit_id?: string | null;
  singleUnitBuilding: boolean;
};

const join = (tokens: Token[]) =>
  tokens
    .map((token) => token.text)
    .join(" ")
    .trim();

/** Drops a leading standard designator word ("Apt 4" → "4"); nonstandard words stay ("Cottage 3"). */
function withoutStandardDesignator(tokens: Token[]): string {
  const rest = tokens.length > 1 && UNIT_DESIGNATORS.has(tokens[0].key) ? tokens.slice(1) : tokens;
  return join(rest.filter((token) => token.key !== "#"));
}

/** spec Unit rules, name derivation when `name` is absent, in order. */
export function deriveUnitName(input: UnitNameInput): { name: string } | { error: "not_derivable" } {
  const line = tokenize(input.line_one ?? "");
  // spec: Unit rules, name derivation step 1: the designator in the unit's own street line.
  const designated = splitDesignator(line);
  if (designated?.value.length) return { name: join(designated.value) };
  // Step 2: the street line with the building's established street removed.
  if (input.buildingStreet && line.length) {
    // Canonical street tokens correspond one to one to the line's leading tokens.
    const building = canonicalStreet(tokenize(input.buildingStreet));
    const own = canonicalStreet(line);
    if (building.length && building.every((key, i) => own[i] === key)) {
      const rest = withoutStandardDesignator(line.slice(building.length));
      if (rest) return { name: rest };
    }
  }
  // Step 3: a designator in line_two (standard word dropped, nonstandard kept verbatim).
  const second = tokenize(input.line_two ?? "");
  if (second.length) {
    const name = withoutStandardDesignator(second);
    if (name) return { name };
  }
  // Step 4: the pms_unit_id.
  if (input.pms_unit_id?.trim()) return { name: input.pms_unit_id.trim() };
  // Step 5: a single-unit building defaults to 1.
  if (input.singleUnitBuilding) return { name: "1" };
  return { error: "not_derivable" };
}
