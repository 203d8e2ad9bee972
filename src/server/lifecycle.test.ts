import { describe, expect, it } from "vitest";
import { REPEATED_SIGNAL_MS, stopSignalClassifier } from "./lifecycle";

describe("stopSignalClassifier (docs/decisions.md, Signals: one group signal is one stop)", () => {
  it("takes the same signal again within the window as the first one delivered twice, and anything else as a second stop", () => {
    let now = 1_000;
    const group = stopSignalClassifier(() => now);
    expect(group("SIGTERM")).toBe("first");
    now += 5; // npm's forwarded copy
    expect(group("SIGTERM")).toBe("repeated");
    now += REPEATED_SIGNAL_MS; // an operator's second stop, later
    expect(group("SIGTERM")).toBe("second");

    now = 0;
    const mixed = stopSignalClassifier(() => now);
    expect(mixed("SIGINT")).toBe("first");
    now += 5;
    // Another signal at once is a second stop, not a copy.
    expect(mixed("SIGTERM")).toBe("second");
    expect(mixed("SIGINT")).toBe("repeated");
  });
});
