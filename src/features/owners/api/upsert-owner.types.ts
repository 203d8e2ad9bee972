import { z } from "zod";
import { httpsOrigin } from "../../../server/origins";
import type { Meta } from "../../../server/trpc/init";

export const upsertOwnerMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/partners/property_owners",
    tags: ["Property owners"],
    summary: "Create or update a property owner",
    description:
      "Upsert keyed on `external_org_id`. Creation answers HTTP 201 with `purchase_flow_enabled: false` and the `owner_slug` used in every scoped path; a re-post updates (HTTP 200): only present fields are written, an explicit null clears an optional field, and `embedded_frame_ancestors` replaces the whole array. 409 when the identifier belongs to an owner the service manages directly.",
  },
  inputErrors: { kind: "fields", error: "Property owner is invalid" },
  responses: { created: true, errors: [401, 403, 409, 415, 422] },
};

export const upsertOwnerInput = z
  .object({
    external_org_id: z.string().trim().min(1).max(255).meta({ description: "The partner's identifier of the owner; the upsert key", example: "org-1042" }),
    name: z.string().trim().min(1).max(255).optional().meta({ description: "Required on creation", example: "Maple Street Holdings" }),
    purchase_flow_enabled: z.boolean().nullable().optional().meta({ description: "False on creation; true activates the owner once its roster is loaded" }),
    max_coverage_amount_cents: z
      .number()
      .int()
      .min(0)
      .max(100_000_000)
      .nullable()
      .optional()
      .meta({ description: "Coverage ceiling in cents", example: 300000 }),
    embedded_frame_ancestors: z
      .array(httpsOrigin)
      .max(50)
      .nullable()
      .optional()
      .meta({
        description: "HTTPS origins allowed to frame the enrollment flow; replaces the whole array when present",
        example: ["https://portal.example.com"],
      }),
    guarantor_coverage_capable: z
      .boolean()
      .nullable()
      .optional()
      .meta({ description: "When true, properties created later get the guarantee product enabled" }),
  })
  .strict();

export type UpsertOwnerInput = z.infer<typeof upsertOwnerInput>;

export const propertyOwnerView = z
  .object({
    external_org_id: z.string(),
    owner_slug: z.string(),
    name: z.string(),
    purchase_flow_enabled: z.boolean(),
    max_coverage_amount_cents: z.number().int().nullable(),
    embedded_frame_ancestors: z.array(z.string()),
    guarantor_coverage_capable: z.boolean(),
  })
  .meta({ id: "PropertyOwner" });

export const upsertOwnerOutput = z.object({
  status_code: z.number().int().meta({ description: "201 on creation, 200 on update; equals the HTTP status" }),
  property_owner: propertyOwnerView,
});
