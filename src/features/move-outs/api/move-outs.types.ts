import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";
import { PROSPECT_MESSAGES } from "../../prospects/messages";
import { isoDate } from "../../prospects/schemas";
import { MOVE_OUT_MESSAGES } from "../messages";

/**
 * spec Move-out: stored exactly as sent, so strings are never trimmed or re-cased. A required string
 * that is empty or only whitespace is blank (spec Errors: "a blank external_id"); one with text keeps
 * its surrounding spaces.
 */
const notBlank = (value: string) => value.trim().length > 0;
const present = () =>
  z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? MOVE_OUT_MESSAGES.blank : "must be a string") })
    .min(1, { error: MOVE_OUT_MESSAGES.blank, abort: true })
    .refine(notBlank, { error: MOVE_OUT_MESSAGES.blank, abort: true });
const required = (max: number) => present().max(max);
const optional = (max: number) => z.string().max(max).nullish();
const emailShape = z.email();
/** Checked on the trimmed text, stored as sent. */
const email = z
  .string()
  .max(255)
  .refine((value) => emailShape.safeParse(value.trim()).success, MOVE_OUT_MESSAGES.invalidEmail);
const cents = z.number().int().min(0).max(1_000_000_000).nullish();

export const moveOutFields = {
  external_id: required(255).meta({ description: "Idempotency key, unique per owner" }),
  // A padded date is refused by the date rule, with its message, before the length.
  move_out_date: present()
    .refine((value) => isoDate.safeParse(value).success, { error: PROSPECT_MESSAGES.invalidDate, abort: true })
    .max(10),
  property: z
    .object(
      {
        address_line_one: required(255),
        address_city: required(100),
        address_state: required(40),
        address_zip: required(10),
        external_id: optional(255),
      },
      { error: (issue) => (issue.input === undefined || issue.input === null ? MOVE_OUT_MESSAGES.blank : "must be an object") },
    )
    .strict()
    .meta({ description: "Stored exactly as sent, not derived from any property record" }),
  unit: z
    .object({ external_id: optional(255), name: optional(100) })
    .strict()
    .nullish(),
  residents: z
    .array(
      z
        .object({
          role: z.enum(["primary", "co_resident"], { error: "must be primary or co_resident" }),
          name: required(200),
          email: email.nullish(),
          external_id: optional(255),
        })
        .strict(),
      { error: (issue) => (issue.input === undefined || issue.input === null ? MOVE_OUT_MESSAGES.blank : "must be an array") },
    )
    .min(1, MOVE_OUT_MESSAGES.atLeastOneResident)
    .max(50),
  refund_amount_cents: cents.meta({ description: "Send only when final; its presence signals the statement is done" }),
  deposit_amount_cents: cents.meta({ description: "Deposit originally collected, before deductions" }),
  lease_start: isoDate.nullish(),
  lease_end: isoDate.nullish(),
};

const invalid = { kind: "resource" as const, key: "move_out", error: MOVE_OUT_MESSAGES.invalid };

export const createMoveOutMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/partners/{owner_slug}/move_outs",
    tags: ["Move-outs"],
    summary: "Open a move-out",
    description:
      "Fields at the top level. Creation answers 201 (HTTP and body `status_code`) and emits `move_out.initiated`. Re-posting an existing `external_id` returns the stored move-out unchanged with 200: no update, no duplicate. Strings are stored exactly as sent (never trimmed or re-cased). A move-out belongs to the partner that created it: an `external_id` another partner of the same owner already used answers 422 `has already been taken`.",
  },
  inputErrors: invalid,
  responses: { created: true, errors: [400, 401, 403, 404, 415, 422] },
};

export const getMoveOutMeta: Meta = {
  openapi: {
    method: "GET",
    path: "/partners/{owner_slug}/move_outs/{id}",
    tags: ["Move-outs"],
    summary: "Read a move-out",
    description: "`id` is the numeric `move_out_id`. 404 when absent, under a different owner, or created by another partner of the owner.",
  },
  responses: { errors: [401, 403, 404] },
};

export const createMoveOutInput = z.object({ owner_slug: z.string(), ...moveOutFields }).strict();
export type CreateMoveOutInput = z.infer<typeof createMoveOutInput>;
export const getMoveOutInput = z.object({ owner_slug: z.string(), id: z.string() });

export const moveOutView = z
  .object({
    move_out_id: z.number().int(),
    external_id: z.string(),
    status: z.enum(["initiated"]),
    move_out_date: z.string(),
    property: z.object({
      address_line_one: z.string(),
      address_city: z.string(),
      address_state: z.string(),
      address_zip: z.string(),
      external_id: z.string().nullish(),
    }),
    unit: z.object({ external_id: z.string().nullish(), name: z.string().nullish() }).nullable(),
    residents: z.array(
      z.object({ role: z.enum(["primary", "co_resident"]), name: z.string(), email: z.string().nullish(), external_id: z.string().nullish() }),
    ),
    refund_amount_cents: z.number().int().nullable(),
    deposit_amount_cents: z.number().int().nullable(),
    lease_start: z.string().nullable(),
    lease_end: z.string().nullable(),
    created_at: z.string(),
  })
  .meta({ id: "MoveOut" });

export const moveOutOutput = z.object({ status_code: z.number().int(), move_out: moveOutView });
