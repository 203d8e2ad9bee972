import type { Prospect } from "./prospects.table";

type Field = keyof Prospect;

/**
 * spec Prospect, Completeness: the fields of the standard create payload are required on every
 * source; sources configured for optional ingest fields do not need screening result, employment
 * status or yearly income; a guarantor-coverage prospect does not need a deposit amount.
 */
const ALWAYS: Field[] = ["email", "phone", "firstName", "lastName", "birthdate", "leaseStartDate", "leaseEndDate", "monthlyRentCents", "hasSsn"];
const UNLESS_OPTIONAL_INGEST: Field[] = ["screeningResult", "employmentStatus", "yearlyIncome"];

export function missingFields(prospect: Prospect, source: { optionalIngestFields: boolean }): Field[] {
  const required = [
    ...ALWAYS,
    ...(source.optionalIngestFields ? [] : UNLESS_OPTIONAL_INGEST),
    ...(prospect.guarantorCoverage ? [] : (["depositAmountCents"] as Field[])),
  ];
  return required.filter((field) => prospect[field] === null || prospect[field] === undefined || prospect[field] === "");
}

export function isProspectComplete(prospect: Prospect, source: { optionalIngestFields: boolean }): boolean {
  return missingFields(prospect, source).length === 0;
}
