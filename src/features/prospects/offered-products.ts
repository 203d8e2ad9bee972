import { z } from "zod";

const url = z.string().nullable();

/**
 * spec "Offered product entries": exactly these fields per product type. The URLs are null while
 * the prospect's own enrollment URLs are (the entries themselves stay: decisions §10).
 */
export const offeredProductSchema = z.discriminatedUnion("product_type", [
  z
    .object({
      product_type: z.literal("security_deposit_insurance"),
      upfront_premium_cents: z.number().int(),
      monthly_premium_cents: z.number().int(),
      upfront_enrollment_url: url,
      monthly_enrollment_url: url,
    })
    .strict(),
  z.object({ product_type: z.literal("cash_deposit"), cash_deposit_amount_cents: z.number().int(), enrollment_url: url }).strict(),
]);
export type OfferedProductEntry = z.infer<typeof offeredProductSchema>;

/** At most two entries, never a guarantee entry (spec Limits: "Products in offered_products: at most two"). */
export const offeredProductsSchema = z.array(offeredProductSchema).max(2);
