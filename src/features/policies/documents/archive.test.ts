import { describe, expect, it } from "vitest";
import { AppError } from "@/server/errors";
import { buildPolicyArchive } from "./archive";
import { pdfText, sampleDeclarations, unzip } from "./document-test-helpers";
import { TERMS_EDITION } from "./terms";

describe("policy document archive (decisions §11 Documents)", () => {
  it("is a zip named after the policy holding its declarations and terms under policy-<number>/", async () => {
    const archive = await buildPolicyArchive(sampleDeclarations());
    expect(archive.filename).toBe("policy-SDI-2026-000123.zip");
    const files = unzip(archive.bytes);
    expect(Object.keys(files).sort()).toEqual(["policy-SDI-2026-000123/declarations.pdf", "policy-SDI-2026-000123/terms.pdf"]);
    expect(archive.entries).toEqual(Object.keys(files));
    for (const bytes of Object.values(files)) expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");
  });

  it("declares policy number, insured, owner, address as stored, unit, coverage, dates and premium as money", async () => {
    const files = unzip((await buildPolicyArchive(sampleDeclarations())).bytes);
    const text = await pdfText(files["policy-SDI-2026-000123/declarations.pdf"]);
    for (const expected of [
      "Policy declarations",
      "Policy number SDI-2026-000123",
      "Security deposit insurance",
      "Rita Renter",
      "Carl Co",
      "Property owner Maple Street Holdings",
      "123 Main St",
      "Austin, TX 78701",
      "Unit 4B",
      "Coverage amount $1,500.00",
      "Coverage period January 5, 2026 to January 4, 2027",
      "Premium $175.00 paid upfront",
      "Issued January 5, 2026 at 14:03 UTC",
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain("version");
  });

  it("shows a monthly premium per month and the guarantee product with its version", async () => {
    const archive = await buildPolicyArchive(
      sampleDeclarations({
        policyNumber: "RGI-7",
        productType: "renter_guarantee_insurance",
        productVersion: "2025.12.01",
        coverageAmountCents: 123456789,
        premium: { cadence: "monthly", amountCents: 1905 },
      }),
    );
    const files = unzip(archive.bytes);
    const declarations = await pdfText(files["policy-RGI-7/declarations.pdf"]);
    expect(declarations).toContain("Renter guarantee insurance, version 2025.12.01");
    expect(declarations).toContain("Coverage amount $1,234,567.89");
    expect(declarations).toContain("Premium $19.05 per month");
    const terms = await pdfText(files["policy-RGI-7/terms.pdf"]);
    expect(terms).toContain(`Terms edition ${TERMS_EDITION}`);
    expect(terms).toContain("in place of a personal guarantor");
    expect(terms).not.toContain("replaces the cash security deposit");
  });

  it("writes the terms of the product bought", async () => {
    const files = unzip((await buildPolicyArchive(sampleDeclarations())).bytes);
    const terms = await pdfText(files["policy-SDI-2026-000123/terms.pdf"]);
    expect(terms).toContain("Policy terms");
    expect(terms).toContain("Policy SDI-2026-000123");
    expect(terms).toContain("replaces the cash security deposit");
    expect(terms).toContain("7. Keeping these documents");
  });

  it("is deterministic: the same input gives the same bytes", async () => {
    const [a, b] = await Promise.all([buildPolicyArchive(sampleDeclarations()), buildPolicyArchive(sampleDeclarations())]);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    const c = await buildPolicyArchive(sampleDeclarations({ coverageAmountCents: 150001 }));
    expect(Buffer.from(a.bytes).equals(Buffer.from(c.bytes))).toBe(false);
  });

  it("draws names the standard fonts cannot encode instead of failing, and wraps long values", async () => {
    const long = `${"Very ".repeat(40)}Long Name`;
    const files = unzip((await buildPolicyArchive(sampleDeclarations({ insuredNames: ["Zoë Łukasz Đorđe 王小明", long, "Tab\tand\nnewline"] }))).bytes);
    const text = await pdfText(files["policy-SDI-2026-000123/declarations.pdf"]);
    expect(text).toContain("Zoë Lukasz Dorde ???");
    expect(text).toContain("Long Name");
    expect(text).toContain("Tab and newline");
  });

  it("refuses an input that cannot make a truthful declarations page, with field errors", async () => {
    const cases: [Partial<Parameters<typeof sampleDeclarations>[0]>, string][] = [
      [{ productType: "renter_guarantee_insurance" }, "productVersion"],
      [{ productVersion: "2025.12.01" }, "productVersion"],
      [{ coverageEndDate: "2026-01-04" }, "coverageEndDate"],
      [{ coverageStartDate: "2026-02-30" }, "coverageStartDate"],
      [{ coverageAmountCents: 10.5 }, "coverageAmountCents"],
      [{ insuredNames: [] }, "insuredNames"],
      [{ policyNumber: "../etc" }, "policyNumber"],
      [{ policyNumber: 'x"; filename="evil' }, "policyNumber"],
    ];
    for (const [override, field] of cases) {
      const failure = await buildPolicyArchive(sampleDeclarations(override)).catch((error: unknown) => error);
      expect(failure, field).toBeInstanceOf(AppError);
      expect((failure as AppError).kind).toBe("invalid");
      expect(Object.keys((failure as AppError).fields ?? {}), JSON.stringify(override)).toContain(field);
    }
  });
});
