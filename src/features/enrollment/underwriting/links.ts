import type { OfferedProduct, UnderwritingOutcome } from "./underwrite";

/**
 * spec "Offered product entries": insurance has an upfront and a monthly enrollment URL, a cash
 * deposit one. The flow builds the URLs (decisions §10 Links: `selected_product`, `cadence`).
 */
export type ProductLink = { product_type: OfferedProduct["product_type"]; cadence?: "upfront" | "monthly" };

/** The (product, cadence) links of a quoted outcome, in offer order; none when declined. */
export function productLinks(outcome: UnderwritingOutcome): ProductLink[] {
  if (outcome.status !== "quoted") return [];
  return outcome.offeredProducts.flatMap((offer): ProductLink[] =>
    offer.product_type === "security_deposit_insurance"
      ? [
          { product_type: offer.product_type, cadence: "upfront" },
          { product_type: offer.product_type, cadence: "monthly" },
        ]
      : [{ product_type: offer.product_type }],
  );
}
