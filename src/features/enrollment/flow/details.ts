import type { FieldErrors } from "../../../server/errors";
import type { Applicant } from "../applications/applications.table";
import type { DetailsInput } from "./contract";
import { FLOW_MESSAGES as M } from "./messages";

const MAX_NAME = 100;
const ADULT_YEARS = 18;
const EARLIEST_BIRTH_YEAR = 1900;

/** `YYYY-MM-DD` that names a real calendar day, else undefined. */
export function parseIsoDay(text: string): { year: number; month: number; day: number } | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const at = new Date(Date.UTC(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

/** Digits of a phone number typed with the usual separators (spaces, dashes, dots, parentheses). */
export function phoneDigits(text: string): string | undefined {
  const stripped = text.trim().replace(/[\s().-]/g, "");
  return /^\d{10}$/.test(stripped) ? stripped : undefined;
}

function birthdateErrors(text: string, today: string): string[] {
  const birth = parseIsoDay(text);
  if (!birth) return [M.birthdateInvalid];
  const iso = text.trim();
  if (iso >= today) return [M.birthdateFuture];
  if (birth.year < EARLIEST_BIRTH_YEAR) return [M.birthdateTooOld];
  // Adult on the 18th birthday (29 February counts as reached on 1 March in non-leap years).
  const adultOn = new Date(Date.UTC(birth.year + ADULT_YEARS, birth.month - 1, birth.day)).toISOString().slice(0, 10);
  if (adultOn > today) return [M.birthdateTooYoung];
  return [];
}

/**
 * decisions §10 step (1): the details the renter confirms. Every field is checked at once; errors
 * are keyed by the `DetailsInput` field names. `today` is the UTC day (`YYYY-MM-DD`).
 */
export function checkDetails(
  input: DetailsInput,
  today: string,
): { applicant: Applicant; errors?: undefined } | { applicant?: undefined; errors: FieldErrors } {
  const fields: FieldErrors = {};
  const firstName = (input.firstName ?? "").trim();
  const lastName = (input.lastName ?? "").trim();
  if (!firstName) fields.firstName = [M.firstNameRequired];
  else if (firstName.length > MAX_NAME) fields.firstName = [M.nameTooLong];
  if (!lastName) fields.lastName = [M.lastNameRequired];
  else if (lastName.length > MAX_NAME) fields.lastName = [M.nameTooLong];
  const phone = phoneDigits(input.phone ?? "");
  if (!phone) fields.phone = [M.phoneInvalid];
  const birth = birthdateErrors(input.birthdate ?? "", today);
  if (birth.length) fields.birthdate = birth;
  if (input.acceptDisclosures !== true) fields.acceptDisclosures = [M.disclosuresRequired];
  if (Object.keys(fields).length || !phone) return { errors: fields };
  return { applicant: { firstName, lastName, phone, birthdate: input.birthdate.trim() } };
}
