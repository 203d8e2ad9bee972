/**
 * decisions §8 normalization of ingested prospect data: phone to its 10 digits (punctuation and a
 * leading US `1` dropped), email trimmed and lower-cased, timestamps cut to dates for date fields.
 */
const DATE_FIELDS = ["birthdate", "lease_start_date", "lease_end_date"] as const;

export function normalizePhone(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const digits = value.replace(/\D/g, "");
  return digits.length === 11 && digits.startsWith("1") ? digits.slice(1) : digits;
}

export function normalizeDate(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const match = /^(\d{4}-\d{2}-\d{2})[T ]\d{2}:\d{2}/.exec(value.trim());
  return match ? match[1] : value.trim();
}

export function normalizeProspectData(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  if ("phone" in out) out.phone = normalizePhone(out.phone);
  if (typeof out.email === "string") out.email = out.email.trim().toLowerCase();
  for (const field of DATE_FIELDS) if (field in out) out[field] = normalizeDate(out[field]);
  return out;
}
