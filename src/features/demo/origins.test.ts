import { describe, expect, it } from "vitest";
import { framingPlan } from "./origins";

describe("framingPlan (docs/decisions.md, Demo page)", () => {
  it("frames across origins when the page is on 127.0.0.1 and the links on localhost", () => {
    expect(framingPlan("http://127.0.0.1:3000", "http://localhost:3000/enroll")).toEqual({
      pageOrigin: "http://127.0.0.1:3000",
      enrollmentOrigin: "http://localhost:3000",
      crossOrigin: true,
      alternativePage: null,
    });
  });

  it("offers the other loopback name when the page shares the links' origin", () => {
    expect(framingPlan("http://localhost:3000", "http://localhost:3000/enroll").alternativePage).toBe("http://127.0.0.1:3000/demo");
    expect(framingPlan("http://127.0.0.1:4000", "http://127.0.0.1:4000/enroll").alternativePage).toBe("http://localhost:4000/demo");
  });

  it("has no alternative for a same-origin deployment on a real host", () => {
    expect(framingPlan("https://staging.example.com", "https://staging.example.com/enroll")).toMatchObject({ crossOrigin: false, alternativePage: null });
  });

  it("treats another port as another origin", () => {
    expect(framingPlan("http://localhost:3001", "http://localhost:3000/enroll")).toMatchObject({
      crossOrigin: true,
      enrollmentOrigin: "http://localhost:3000",
    });
  });
});
