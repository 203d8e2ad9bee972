import { addressLines, formatDate, formatInstant, formatPremium, formatUsd } from "./format";
import type { ParsedDeclarations, PolicyProductType } from "./input";
import { TERMS_EDITION, termsSections } from "./terms";

/** pdf-lib loads with the first document written, not with every process that imports the router (docs/decisions.md "Loading on first use"). */
const pdfWriter = () => import("./pdf-writer").then((module) => module.PdfWriter);

export const PRODUCT_NAMES: Record<PolicyProductType, string> = {
  security_deposit_insurance: "Security deposit insurance",
  renter_guarantee_insurance: "Renter guarantee insurance",
};

/**
 * The declarations page (decisions §11 Documents): policy number, insured, the building's address as
 * stored, unit, coverage, dates and premium, money as dollars and dates in words.
 */
export async function declarationsPdf(input: ParsedDeclarations): Promise<Uint8Array> {
  const pdf = await (await pdfWriter()).create({
    title: `Declarations, policy ${input.policyNumber}`,
    subject: PRODUCT_NAMES[input.productType],
    at: input.issuedAt,
  });
  pdf.title("Policy declarations");
  pdf.paragraph(PRODUCT_NAMES[input.productType], { muted: true, size: 12 });
  pdf.rule();
  pdf.row("Policy number", [input.policyNumber]);
  pdf.row("Product", [input.productVersion ? `${PRODUCT_NAMES[input.productType]}, version ${input.productVersion}` : PRODUCT_NAMES[input.productType]]);
  pdf.row("Insured", input.insuredNames);
  pdf.row("Property owner", [input.ownerName]);
  pdf.row("Address", addressLines(input.address));
  pdf.row("Unit", [input.unitName]);
  pdf.rule();
  pdf.row("Coverage amount", [formatUsd(input.coverageAmountCents)]);
  pdf.row("Coverage period", [`${formatDate(input.coverageStartDate)} to ${formatDate(input.coverageEndDate)}`]);
  pdf.row("Premium", [formatPremium(input.premium)]);
  pdf.row("Issued", [formatInstant(input.issuedAt)]);
  pdf.rule();
  pdf.paragraph(
    `This declarations page and the policy terms (edition ${TERMS_EDITION}, in terms.pdf of the same archive) form the policy. ` +
      "A revision of the policy issues a new declarations page; the latest one describes the policy in force.",
    { muted: true, size: 9 },
  );
  return pdf.save();
}

/** The terms of the product, as a PDF beside the declarations. */
export async function termsPdf(input: ParsedDeclarations): Promise<Uint8Array> {
  const pdf = await (await pdfWriter()).create({
    title: `Policy terms, edition ${TERMS_EDITION}`,
    subject: PRODUCT_NAMES[input.productType],
    at: input.issuedAt,
  });
  pdf.title("Policy terms");
  pdf.paragraph(`${PRODUCT_NAMES[input.productType]}. Terms edition ${TERMS_EDITION}. Policy ${input.policyNumber}.`, { muted: true });
  for (const section of termsSections(input.productType)) {
    pdf.heading(section.heading);
    pdf.paragraph(section.body);
  }
  return pdf.save();
}
