import { z } from "zod";
import { collectionMeta, collectionOutput } from "./collection.types";

export const bankAccountItem = z
  .object({
    external_system_id: z.string().trim().min(1).max(255).meta({ description: "Upsert key; referenced by bank_account_external_id on properties" }),
    display_name: z.string().trim().min(1).max(255).optional().meta({ description: "Label for operations and claim records (required on creation)" }),
    routing_number: z
      .string()
      .regex(/^\d{9}$/, "must be exactly 9 digits")
      .optional()
      .meta({ description: "ABA routing number, 9 digits (required on creation)", example: "021000021" }),
    account_number: z
      .string()
      .regex(/^\d{1,20}$/, "must be digits, at most 20")
      .optional()
      .meta({ description: "Digits, up to 20 (required on creation). Never returned", example: "000123456789" }),
    default: z.boolean().optional().meta({ description: "true moves the default to this account; false on the current default fails the item" }),
  })
  .strict()
  .meta({ id: "BankAccountItem" });

export type BankAccountItem = z.infer<typeof bankAccountItem>;

export const bankAccountsMeta = collectionMeta(
  "bank_accounts",
  "Upsert bank accounts",
  "Claim-payout accounts, upserted on `external_system_id`. The first registered account is the default; `default: true` on a later one moves it. Account numbers are never returned: results carry `account_number_last4`. Accounts cannot be deleted.",
  bankAccountItem,
);

export const bankAccountsOutput = collectionOutput({
  display_name: z.string().optional(),
  routing_number: z.string().optional(),
  account_number_last4: z.string().optional(),
  default: z.boolean().optional(),
});
