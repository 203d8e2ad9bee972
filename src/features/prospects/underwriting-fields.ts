import { enrollmentUrl, type Flow, type LinkParts } from "./enrollment-links";
import type { OfferedProductEntry } from "./offered-products";
import type { Prospect } from "./prospects.table";

/**
 * What the last underwriting adds to the prospect response (decisions §10 "Prospect fields come
 * alive"; docs/underwriting.md "On the prospect"): the offered products with their product links,
 * whether every applicable product was declined, and underwriting's reasons per product.
 */
export type UnderwritingFields = {
  offeredProducts: OfferedProductEntry[];
  /** spec Prospect rules 2: every applicable product declined → both enrollment URLs null. */
  declined: boolean;
  sdiReasons: string[];
  cdReasons: string[];
  rgReasons: string[];
};

const NONE: UnderwritingFields = { offeredProducts: [], declined: false, sdiReasons: [], cdReasons: [], rgReasons: [] };

/**
 * `links` is null when the prospect's enrollment URLs are null (not eligible, no email): the
 * entries stay (they keep their entries after purchase, decisions §10) with null URLs.
 */
export function underwritingFields(prospect: Prospect, links: (Omit<LinkParts, "selectedProduct" | "cadence"> & { flow: Flow }) | null): UnderwritingFields {
  const outcome = prospect.underwriting;
  if (!outcome) return NONE;
  if (outcome.status === "declined") {
    return { offeredProducts: [], declined: true, sdiReasons: outcome.sdiReasons, cdReasons: outcome.cdReasons, rgReasons: outcome.rgReasons ?? [] };
  }
  const url = (extra: Pick<LinkParts, "selectedProduct" | "cadence">) => (links ? enrollmentUrl({ ...links, ...extra }) : null);
  // spec: always empty on a guarantee prospect; the guarantee is never an entry.
  const offeredProducts: OfferedProductEntry[] = prospect.guarantorCoverage
    ? []
    : outcome.offeredProducts.slice(0, 2).map((offer) =>
        offer.product_type === "security_deposit_insurance"
          ? {
              product_type: offer.product_type,
              upfront_premium_cents: offer.upfront_premium_cents,
              monthly_premium_cents: offer.monthly_premium_cents,
              upfront_enrollment_url: url({ selectedProduct: offer.product_type, cadence: "upfront" }),
              monthly_enrollment_url: url({ selectedProduct: offer.product_type, cadence: "monthly" }),
            }
          : {
              product_type: offer.product_type,
              cash_deposit_amount_cents: offer.cash_deposit_amount_cents,
              enrollment_url: url({ selectedProduct: offer.product_type }),
            },
      );
  return { offeredProducts, declined: false, sdiReasons: outcome.sdiReasons, cdReasons: outcome.cdReasons, rgReasons: [] };
}

/** Eligibility's reasons first, then underwriting's that say something new (one string once). */
export function mergeReasons(eligibility: string[] | undefined, underwriting: string[]): string[] {
  return [...new Set([...(eligibility ?? []), ...underwriting])];
}
