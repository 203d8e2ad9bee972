import { type Flow, isValidLink, type LinkCadence, type LinkParts, type SelectedProduct } from "../../prospects/enrollment-links";
import type { LinkParams } from "./contract";

const PRODUCTS: readonly string[] = ["security_deposit_insurance", "cash_deposit"];
const LINK_CADENCES: readonly string[] = ["upfront", "monthly"];

/** A link whose signature holds: its parts, and the redirect it carries (not signed: checked against the source). */
export type SignedLink = LinkParts & { redirectUrl?: string };

/**
 * decisions §10 Links: the link's parts when its flow, product and cadence are known values and its
 * signature covers them all; undefined otherwise. The email check against the prospect comes after
 * (the prospect is needed for it).
 */
export function parseSignedLink(link: LinkParams): SignedLink | undefined {
  if (link.flow !== "embedded" && link.flow !== "expedited") return undefined;
  const selected = link.selected_product || undefined;
  const cadence = link.cadence || undefined;
  if (selected !== undefined && !PRODUCTS.includes(selected)) return undefined;
  if (cadence !== undefined && !LINK_CADENCES.includes(cadence)) return undefined;
  if (!link.email || !link.sig) return undefined;
  const parts: LinkParts = {
    flow: link.flow as Flow,
    ownerSlug: link.owner,
    source: link.source,
    sourceProspectId: link.id,
    email: link.email,
    ...(selected ? { selectedProduct: selected as SelectedProduct } : {}),
    ...(cadence ? { cadence: cadence as LinkCadence } : {}),
  };
  if (!isValidLink(parts, link.sig)) return undefined;
  return { ...parts, ...(link.redirect_url ? { redirectUrl: link.redirect_url } : {}) };
}
