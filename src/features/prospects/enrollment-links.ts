import { createHmac } from "node:crypto";
import { getConfig } from "../../server/config";
import { constantTimeEqual, derivedKey, previousDerivedKey } from "../../server/secrets";

export type Flow = "embedded" | "expedited";
export type SelectedProduct = "security_deposit_insurance" | "cash_deposit";
export type LinkCadence = "upfront" | "monthly";
/**
 * decisions §10 Links: a product link adds `selected_product` and, for insurance, `cadence`; both
 * are covered by the signature, so neither can be altered or added to a plain link.
 */
export type LinkParts = {
  flow: Flow;
  ownerSlug: string;
  source: string;
  sourceProspectId: string;
  email: string;
  selectedProduct?: SelectedProduct;
  cadence?: LinkCadence;
};

/** A signature over every part of the link, so links cannot be forged or enumerated. */
export function linkSignature(parts: LinkParts): string {
  return signatureUnder(parts, derivedKey) as string;
}

function signatureUnder(parts: LinkParts, keyOf: (purpose: string) => Buffer | undefined): string | undefined {
  const base = [parts.flow, parts.ownerSlug, parts.source, parts.sourceProspectId, parts.email.toLowerCase()];
  // Product links are signed under their own key: a plain link's signature never fits a product link.
  const product = parts.selectedProduct !== undefined || parts.cadence !== undefined;
  const key = keyOf(product ? "enrollment-product-links-v1" : "enrollment-links-v1");
  if (!key) return undefined;
  return createHmac("sha256", key)
    .update((product ? [...base, parts.selectedProduct ?? "", parts.cadence ?? ""] : base).join("\n"))
    .digest("base64url")
    .slice(0, 32);
}

/**
 * `{enrollment_host}/<flow>/<owner_slug>/<source>/<source_prospect_id>?email=…&sig=…` (spec
 * Enrollment flow: the URL carries flow, owner slug, source, prospect id and the email parameter).
 */
export function enrollmentUrl(parts: LinkParts): string {
  const path = [parts.flow, parts.ownerSlug, parts.source, parts.sourceProspectId].map(encodeURIComponent).join("/");
  const query = new URLSearchParams({ email: parts.email });
  if (parts.selectedProduct) query.set("selected_product", parts.selectedProduct);
  if (parts.cadence) query.set("cadence", parts.cadence);
  query.set("sig", linkSignature(parts));
  return `${getConfig().enrollmentBaseUrl}/${path}?${query}`;
}

/** Links signed before a master key rotation stay valid while `MASTER_KEY_PREVIOUS` is given (docs/operations.md). */
export function isValidLink(parts: LinkParts, signature: string): boolean {
  if (constantTimeEqual(linkSignature(parts), signature)) return true;
  const previous = signatureUnder(parts, previousDerivedKey);
  return previous !== undefined && constantTimeEqual(previous, signature);
}

/**
 * spec Prospect: `enrollment_url` on the source's flow; `hosted_enrollment_url` always expedited
 * (identical when the source is expedited). Both null unless eligible for at least one product.
 */
export function enrollmentLinks(
  eligible: boolean,
  parts: Omit<LinkParts, "flow">,
  sourceFlow: Flow,
): { enrollment_url: string | null; hosted_enrollment_url: string | null } {
  if (!eligible || !parts.email) return { enrollment_url: null, hosted_enrollment_url: null };
  return { enrollment_url: enrollmentUrl({ ...parts, flow: sourceFlow }), hosted_enrollment_url: enrollmentUrl({ ...parts, flow: "expedited" }) };
}
