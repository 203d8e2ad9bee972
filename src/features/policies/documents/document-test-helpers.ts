import { unzipSync } from "fflate";
import { extractText, getDocumentProxy } from "unpdf";
import type { DeclarationsInput } from "./input";

/** A complete declarations input for tests; override what a test is about. */
export function sampleDeclarations(overrides: Partial<DeclarationsInput> = {}): DeclarationsInput {
  return {
    policyNumber: "SDI-2026-000123",
    insuredNames: ["Rita Renter", "Carl Co"],
    address: { lineOne: "123 Main St", city: "Austin", state: "TX", zip: "78701" },
    unitName: "4B",
    productType: "security_deposit_insurance",
    coverageAmountCents: 150000,
    coverageStartDate: "2026-01-05",
    coverageEndDate: "2027-01-04",
    premium: { cadence: "upfront", amountCents: 17500 },
    ownerName: "Maple Street Holdings",
    issuedAt: new Date("2026-01-05T14:03:00Z"),
    ...overrides,
  };
}
/** The files of a zip, by path. */
export function unzip(bytes: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(bytes);
}

/** A PDF's text, pages joined, whitespace collapsed (what a reader sees, in reading order). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text.replace(/\s+/g, " ");
}
