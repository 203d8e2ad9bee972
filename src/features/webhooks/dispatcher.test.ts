import { describe, expect, it } from "vitest";
import { claimSlots, reserveOf } from "./dispatcher";

const options = { maxInFlight: 500, endpointMaxInFlight: 10 };

describe('what a claim may take (docs/decisions.md, "Delivery engine: a dispatcher per worker")', () => {
  it("keeps a tenth of the slots for endpoints holding none", () => {
    expect(reserveOf(options)).toBe(50);
    expect(reserveOf({ maxInFlight: 7 })).toBe(0);
  });

  it("above the reserve: every endpoint up to its own limit, within the slots above the reserve", () => {
    const held = new Map([["we_a", 3]]);
    expect(claimSlots(options, 200, held)).toEqual({ limit: 150, endpointLimit: 10, busy: { we_a: 3 } });
  });

  it("with only the reserve left: one attempt each for endpoints holding none, nothing for the others", () => {
    const held = new Map([
      ["we_a", 3],
      ["we_b", 10],
    ]);
    expect(claimSlots(options, 50, held)).toEqual({ limit: 50, endpointLimit: 1, busy: { we_a: 1, we_b: 1 } });
  });

  it("one attempt at a time for an endpoint whose last attempt got no answer, and none of the reserve", () => {
    const unanswering = new Set(["we_dead", "we_dead_held"]);
    const held = new Map([["we_dead_held", 1]]);
    expect(claimSlots(options, 200, held, unanswering)).toEqual({ limit: 150, endpointLimit: 10, busy: { we_dead: 9, we_dead_held: 10 } });
    expect(claimSlots(options, 50, held, unanswering)).toEqual({ limit: 50, endpointLimit: 1, busy: { we_dead: 1, we_dead_held: 1 } });
  });

  it("nothing for an endpoint resting at its rate limit, above the reserve or within it", () => {
    const resting = new Set(["we_limited"]);
    const held = new Map([["we_limited", 2]]);
    expect(claimSlots(options, 200, held, new Set(), resting)).toEqual({ limit: 150, endpointLimit: 10, busy: { we_limited: 10 } });
    expect(claimSlots(options, 50, new Map(), new Set(), resting)).toEqual({ limit: 50, endpointLimit: 1, busy: { we_limited: 1 } });
  });

  it("a paced endpoint at most its starts allowed now, never more than its own slots left", () => {
    const held = new Map([
      ["we_paced", 2],
      ["we_paced_full", 9],
    ]);
    const paced = new Map([
      ["we_paced", 3],
      ["we_paced_full", 5],
      ["we_paced_none", 0],
      ["we_paced_plenty", 40],
    ]);
    expect(claimSlots(options, 200, held, new Set(), new Set(), paced)).toEqual({
      limit: 150,
      endpointLimit: 10,
      busy: { we_paced: 7, we_paced_full: 9, we_paced_none: 10 },
    });
    // Within the reserve: one for an endpoint holding none, unless it may start none now.
    expect(claimSlots(options, 50, new Map(), new Set(), new Set(), paced)).toEqual({ limit: 50, endpointLimit: 1, busy: { we_paced_none: 1 } });
  });
});
