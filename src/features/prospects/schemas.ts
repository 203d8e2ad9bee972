import { z } from "zod";
import { PROSPECT_MESSAGES } from "./messages";

const blankable = (schema: z.ZodType<string, string>) =>
  z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? PROSPECT_MESSAGES.blank : "must be a string") }).pipe(schema);

/** `YYYY-MM-DD` and a real calendar date (spec Conventions). */
export const isoDate = z.string().refine((value) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}, PROSPECT_MESSAGES.invalidDate);

const text = (max: number) => z.string().trim().max(max).nullish();
const cents = z.number().int().min(0).max(1_000_000_000).nullish();

/**
 * The largest monthly rent accepted: rent × the largest coverage multiplier (100) stays a whole
 * number of cents every amount column holds (PostgreSQL `integer`), so no accepted rent can make
 * a coverage, a premium or a payment unstorable later, whatever multiplier the building takes
 * (docs/decisions.md, Hardening: limits).
 */
export const MAX_MONTHLY_RENT_CENTS = 20_000_000;

/**
 * A nested property or unit: a reference `{external_system_id}` or a full roster item (spec Prospect
 * rules 5). A full item is validated by the roster when it has to be created, so its failure comes
 * back as that item's field errors.
 */
const nested = () =>
  z
    .object({ external_system_id: z.string().trim().min(1).max(255) })
    .catchall(z.unknown())
    .meta({
      description: "`{external_system_id}` of a known record, or a full item (see the onboarding collections) to create it",
      examples: [{ external_system_id: "bldg-12" }],
    });
const nestedProperty = nested();
const nestedUnit = nested();

/** Writable prospect fields (spec Prospect). Shared by the API and the ingestion gateway. */
export const prospectFields = z
  .object({
    source: blankable(z.string().trim().min(1, PROSPECT_MESSAGES.blank).max(64)),
    source_prospect_id: blankable(z.string().trim().min(1, PROSPECT_MESSAGES.blank).max(255)),
    terms_accepted_at: blankable(
      z
        .string()
        .trim()
        .min(1, PROSPECT_MESSAGES.blank)
        .pipe(z.iso.datetime({ offset: true, error: PROSPECT_MESSAGES.invalidTimestamp })),
    ).meta({
      description: "When the renter accepted the terms; accepted, never echoed",
    }),
    email: z.string().trim().max(255).pipe(z.email()).nullish(),
    phone: z
      .string()
      .regex(/^\d{10}$/, PROSPECT_MESSAGES.invalidPhone)
      .nullish()
      .meta({ description: "Exactly 10 digits, no country code, no punctuation", example: "5125550123" }),
    first_name: text(100),
    last_name: text(100),
    birthdate: isoDate.nullish(),
    lease_start_date: isoDate.nullish(),
    lease_end_date: isoDate.nullish(),
    monthly_rent_cents: z
      .number()
      .int()
      .min(0)
      .max(MAX_MONTHLY_RENT_CENTS, PROSPECT_MESSAGES.rentTooLarge(MAX_MONTHLY_RENT_CENTS))
      .nullish()
      .meta({ description: `At most ${MAX_MONTHLY_RENT_CENTS} ($200,000 a month)` }),
    deposit_amount_cents: cents.meta({ description: "For a guarantor-coverage prospect, only a cash deposit actually given" }),
    guarantor_coverage: z.boolean().nullish().meta({ description: "Default false; true selects the guarantee product" }),
    screening_result: text(50).meta({ example: "approved" }),
    employment_status: text(50).meta({ example: "employed" }),
    yearly_income: z.number().min(0).max(1_000_000_000).nullish(),
    has_ssn: z.boolean().nullish(),
    social_security_number: z
      .string()
      .regex(/^\d{3}-?\d{2}-?\d{4}$/, "must be 9 digits")
      .nullish()
      .meta({ description: "Accepted, encrypted at rest, never echoed" }),
    education_level: text(50).meta({ description: "Accepted, never echoed" }),
    citizenship: text(50).meta({ description: "Accepted, never echoed" }),
    pms_type: z.enum(["pms_one", "pms_two"]).nullish(),
    pms_property_id: text(255),
    pms_unit_id: text(255),
    pms_prospect_id: text(255),
    property: nestedProperty.nullish().meta({ description: "Owners provisioned through onboarding: `{external_system_id}` or a full property item" }),
    unit: nestedUnit.nullish().meta({ description: "`{external_system_id}` or a full unit item" }),
    authorized_members: z.array(z.record(z.string(), z.unknown())).max(20).nullish().meta({ description: "Replaces the whole array when present" }),
  })
  .strict();

export type ProspectFields = z.infer<typeof prospectFields>;

/** Writable fields the service never echoes (spec Prospect): accepted, kept out of every answer. */
export const NEVER_ECHOED_FIELDS = ["terms_accepted_at", "social_security_number", "education_level", "citizenship"] as const;
