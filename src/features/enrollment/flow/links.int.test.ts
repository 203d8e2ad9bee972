import { describe, expect, it } from "vitest";
import { runDueJobs } from "../../../test/jobs";
import { completeProspect, prospectPartner } from "../../prospects/prospect-test-helpers";
import { loadEnrollment } from "./service";

function paramsOf(url: string) {
  const parsed = new URL(url);
  const [, , flow, owner, source, id] = parsed.pathname.split("/").map(decodeURIComponent);
  return { flow, owner, source, id, email: parsed.searchParams.get("email") ?? "", sig: parsed.searchParams.get("sig") ?? "" };
}

describe("enrollment links (signed, not forgeable or enumerable; docs/decisions.md, Enrollment: the flow)", () => {
  it("resolves a link the service issued and refuses altered ones", async () => {
    const { post, get, source } = await prospectPartner();
    await post(completeProspect(source, "link-1"));
    await runDueJobs();
    const prospect = (await get("link-1")).body.prospect;
    const link = paramsOf(String(prospect.enrollment_url));
    expect(await loadEnrollment(link)).toMatchObject({ kind: "view", view: { step: "details", flow: "embedded", firstName: "Rita", guarantee: false } });
    expect(await loadEnrollment(paramsOf(String(prospect.hosted_enrollment_url)))).toMatchObject({
      kind: "view",
      view: { step: "details", flow: "expedited" },
    });
    for (const forged of [
      { ...link, id: "link-2" },
      { ...link, email: "other@example.com" },
      { ...link, flow: "expedited" },
      { ...link, sig: `${link.sig.slice(0, -1)}${link.sig.endsWith("A") ? "B" : "A"}` },
      { ...link, sig: "" },
    ]) {
      expect(await loadEnrollment(forged)).toEqual({ kind: "invalid" });
    }
  });
});
