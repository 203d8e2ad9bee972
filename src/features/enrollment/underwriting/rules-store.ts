import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Tx } from "../../../server/db/client";
import { AppError, errors, type FieldErrors } from "../../../server/errors";
import { propertyOwners } from "../../owners/owners.table";
import { UNDERWRITING_MESSAGES } from "./messages";
import { DEFAULT_UNDERWRITING_RULES, mergeUnderwritingRules, type UnderwritingRules, underwritingRulesOverrideSchema } from "./rules";
import { underwritingRules } from "./rules.table";

/** zod issues as field errors keyed by their dotted path (`securityDepositInsurance.upfrontRateBps`). */
function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "rules";
    fields[key] = [...(fields[key] ?? []), issue.message];
  }
  return fields;
}

/** The rules in force for an owner: the defaults merged with its stored override (docs/underwriting.md). */
export async function underwritingRulesFor(tx: Tx, ownerId: number): Promise<UnderwritingRules> {
  const [row] = await tx.select({ rules: underwritingRules.rules }).from(underwritingRules).where(eq(underwritingRules.ownerId, ownerId));
  if (!row) return DEFAULT_UNDERWRITING_RULES;
  const parsed = underwritingRulesOverrideSchema.safeParse(row.rules);
  // A row written around setUnderwritingRules cannot be priced on: fail (the job retries) rather than guess.
  if (!parsed.success) throw new AppError("internal", UNDERWRITING_MESSAGES.storedRulesInvalid, { fields: fieldErrorsOf(parsed.error), cause: parsed.error });
  return mergeUnderwritingRules(DEFAULT_UNDERWRITING_RULES, parsed.data);
}

/**
 * Stores an owner's override after validating it (unknown fields, wrong types and out-of-range
 * values answer 422 with field errors), replacing any previous override. Answers the merged rules.
 */
export async function setUnderwritingRules(tx: Tx, ownerId: number, rules: unknown): Promise<UnderwritingRules> {
  const parsed = underwritingRulesOverrideSchema.safeParse(rules);
  if (!parsed.success) throw errors.invalidFields(UNDERWRITING_MESSAGES.rulesInvalid, fieldErrorsOf(parsed.error));
  const merged = mergeUnderwritingRules(DEFAULT_UNDERWRITING_RULES, parsed.data);
  const [owner] = await tx.select({ id: propertyOwners.id }).from(propertyOwners).where(eq(propertyOwners.id, ownerId));
  if (!owner) throw errors.notFound(UNDERWRITING_MESSAGES.ownerNotFound);
  await tx
    .insert(underwritingRules)
    .values({ ownerId, rules: parsed.data })
    .onConflictDoUpdate({ target: underwritingRules.ownerId, set: { rules: parsed.data, updatedAt: new Date() } });
  return merged;
}

/** Removes an owner's override: the defaults apply again. */
export async function clearUnderwritingRules(tx: Tx, ownerId: number): Promise<void> {
  await tx.delete(underwritingRules).where(eq(underwritingRules.ownerId, ownerId));
}
