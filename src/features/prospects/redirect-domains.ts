/**
 * A source's redirect domain as stored (decisions §4 `source create --redirect-domain`, §10 Redirect):
 * a public domain name, optionally `*.`-prefixed, lower case; in staging also `localhost`, for local
 * demos and tests (decisions §10 Framing). Undefined when it is anything else.
 */
export function redirectDomainOf(value: string, appEnv: "staging" | "production"): string | undefined {
  const domain = value.trim().toLowerCase();
  if (domain === "localhost") return appEnv === "staging" ? domain : undefined;
  return /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(domain) ? domain : undefined;
}
