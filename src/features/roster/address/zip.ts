const ZIP = /^(\d{5})(?:-?\d{4})?$/;

/**
 * spec Property, `address.zip` and Limits ("ZIP+4 truncated to 5 digits"): "12345", "12345-6789" and
 * "123456789", surrounding spaces allowed → "12345"; null for anything else.
 */
export function normalizeZip(input: string): string | null {
  return ZIP.exec(input.trim())?.[1] ?? null;
}
