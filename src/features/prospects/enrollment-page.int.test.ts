import { describe, expect, it } from "vitest";
import { runDueJobs } from "../../test/jobs";
import { enrollmentState } from "./enrollment-page";
import { completeProspect, prospectPartner } from "./prospect-test-helpers";

function paramsOf(url: string) {
  const parsed = new URL(url);
  const [, , flow, owner, source, id] = parsed.pathname.split("/").map(decodeURIComponent);
  return { flow, owner, source, id, email: parsed.searchParams.get("email") ?? "", sig: parsed.searchParams.get("sig") ?? "" };
}

describe("enrollment links (issue 5: signed, not forgeable or enumerable)", () => {
  it("resolves a link the service issued and refuses altered ones", async () => {
    const { post, get, source } = await prospectPartner();
    await post(completeProspect(source, "link-1"));
    await runDueJobs();
    const prospect = (await get("link-1")).body.prospect;
    const link = paramsOf(String(prospect.enrollment_url));
    expect(await enrollmentState(link)).toEqual({ kind: "found", flow: "embedded", firstName: "Rita", status: "ready", eligible: true, guarantee: false });
    expect((await enrollmentState(paramsOf(String(prospect.hosted_enrollment_url)))).kind).toBe("found");
    for (const forged of [
      { ...link, id: "link-2" },
      { ...link, email: "other@example.com" },
      { ...link, flow: "expedited" },
      { ...link, sig: `${link.sig.slice(0, -1)}${link.sig.endsWith("A") ? "B" : "A"}` },
      { ...link, sig: "" },
    ]) {
      expect(await enrollmentState(forged)).toEqual({ kind: "invalid" });
    }
  });
});
