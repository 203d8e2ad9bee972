import { z } from "zod";

/**
 * What the declarations page shows (decisions §11 Documents): a plain value, built by the policy
 * flow from its records, so the documents know nothing of the policy tables.
 */
export const PRODUCT_TYPES = ["security_deposit_insurance", "renter_guarantee_insurance"] as const;
export type PolicyProductType = (typeof PRODUCT_TYPES)[number];

const isoDate = z.iso.date();
const cents = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const text = z.string().trim().min(1).max(500);

export const declarationsInputSchema = z
  .object({
    /** Human-readable policy number (decisions §11); also names the archive and its folder. */
    policyNumber: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, dot, dash and underscore only"),
    /** The insured renters, primary first. */
    insuredNames: z.array(text).min(1).max(10),
    /** The building's address as stored (decisions §11: "address of the building as stored"). */
    address: z.object({ lineOne: text, city: text, state: text, zip: text }),
    unitName: text,
    productType: z.enum(PRODUCT_TYPES),
    /** Guarantee product only (spec: `product_version` only for the guarantee product). */
    productVersion: z.string().trim().min(1).max(32).optional(),
    coverageAmountCents: cents,
    coverageStartDate: isoDate,
    coverageEndDate: isoDate,
    premium: z.object({ cadence: z.enum(["upfront", "monthly"]), amountCents: cents }),
    /** The property owner: the policy's obligee and holder of the deposit it replaces. */
    ownerName: text,
    issuedAt: z.date(),
  })
  .superRefine((input, ctx) => {
    if (input.coverageEndDate < input.coverageStartDate) ctx.addIssue({ code: "custom", path: ["coverageEndDate"], message: "is before the start date" });
    if (input.productType === "renter_guarantee_insurance" && !input.productVersion)
      ctx.addIssue({ code: "custom", path: ["productVersion"], message: "is required for the guarantee product" });
    if (input.productType !== "renter_guarantee_insurance" && input.productVersion)
      ctx.addIssue({ code: "custom", path: ["productVersion"], message: "is only for the guarantee product" });
  });

export type DeclarationsInput = z.input<typeof declarationsInputSchema>;
/** The input once checked and trimmed. */
export type ParsedDeclarations = z.output<typeof declarationsInputSchema>;
