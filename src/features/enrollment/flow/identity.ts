/**
 * The identity check of the details step (decisions §10 Terminal states: "identity check failed").
 * No identity provider is wired yet; staging's magic value stands in for a failure: an email whose
 * local part ends in `+blocked`. Production ignores it (and so passes everyone until a provider exists).
 */
export function failsIdentityCheck(email: string | null, appEnv: "staging" | "production"): boolean {
  if (appEnv !== "staging" || !email) return false;
  const at = email.lastIndexOf("@");
  const local = at === -1 ? email : email.slice(0, at);
  return local.toLowerCase().endsWith("+blocked");
}
