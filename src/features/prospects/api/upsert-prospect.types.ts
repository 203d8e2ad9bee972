import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";
import { PROSPECT_MESSAGES } from "../messages";
import { offeredProductsSchema } from "../offered-products";
import { prospectFields } from "../schemas";

export const upsertProspectMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/partners/{owner_slug}/prospects",
    tags: ["Prospects"],
    summary: "Create or update a prospect",
    description:
      "Upsert on (`source`, `source_prospect_id`). HTTP 200 both ways; the body's `status_code` is 201 on create and 200 on update. Only supplied fields are updated. A complete prospect is checked for eligibility in the background (typically seconds): poll GET until `enrollment_url` is set, or subscribe to `prospect.ready`. Clients created with request signing must send `X-Request-Signature`.",
  },
  inputErrors: { kind: "resource", key: "prospect", error: PROSPECT_MESSAGES.invalid },
  responses: { errors: [400, 401, 403, 404, 415, 422] },
};

export const upsertProspectInput = z.object({ owner_slug: z.string(), prospect: prospectFields });

const reasons = z.array(z.string());

export const prospectView = z
  .object({
    id: z.number().int(),
    source: z.string(),
    source_prospect_id: z.string(),
    email: z.string().nullable(),
    phone: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    birthdate: z.string().nullable(),
    lease_start_date: z.string().nullable(),
    lease_end_date: z.string().nullable(),
    screening_result: z.string().nullable(),
    monthly_rent_cents: z.number().int().nullable(),
    deposit_amount_cents: z.number().int().nullable(),
    employment_status: z.string().nullable(),
    yearly_income: z.number().nullable(),
    has_ssn: z.boolean().nullable(),
    pms_type: z.enum(["pms_one", "pms_two"]).nullable(),
    pms_property_id: z.string().nullable(),
    pms_unit_id: z.string().nullable(),
    pms_prospect_id: z.string().nullable(),
    status: z.enum(["incomplete", "processing", "ready", "error"]),
    effective_coverage_amount_cents: z.number().int().nullable(),
    percent_savings: z.number().nullable(),
    enrollment_url: z.string().nullable().meta({ description: "Null unless eligible for at least one applicable product: gate on this, not on status" }),
    hosted_enrollment_url: z.string().nullable().meta({ description: "The same enrollment on the expedited full-page flow; load top-level" }),
    offered_products: offeredProductsSchema.meta({ description: "Priced deposit products after underwriting, at most two; empty on a guarantee prospect" }),
    application_submitted: z.boolean(),
    latest_coverage: z.record(z.string(), z.unknown()).nullable(),
    guarantor_coverage: z.boolean(),
    rg_eligibility_status: z.enum(["eligible", "ineligible"]).optional().meta({ description: "Guarantee prospects only, once decided" }),
    rg_ineligibility_reasons: reasons.optional().meta({ description: "Present whenever guarantor_coverage is true" }),
    sdi_ineligibility_reasons: reasons.optional(),
    cd_ineligibility_reasons: reasons.optional(),
  })
  .meta({ id: "Prospect" });

export const prospectOutput = z.object({
  status_code: z.number().int().meta({ description: "201 on create, 200 otherwise" }),
  prospect: prospectView,
});
