import type { TerminalState } from "./contract";

/**
 * decisions §10 Redirect: on the expedited flow, `redirect_url` is followed at a terminal state only
 * when its host is one of the source's redirect domains (the host itself or a subdomain of it; a
 * stored `*.example.com` allows subdomains only) and its scheme is HTTPS — HTTP too for `localhost`
 * in staging. The state is appended as `status=<state>`, keeping the URL's own query. Anything else
 * answers null: the confirmation page stays.
 */
export function redirectTarget(
  redirectUrl: string | undefined,
  redirectDomains: readonly string[],
  state: TerminalState,
  appEnv: "staging" | "production",
): string | null {
  if (!redirectUrl) return null;
  let url: URL;
  try {
    url = new URL(redirectUrl);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  const host = url.hostname.toLowerCase();
  const localHttp = url.protocol === "http:" && appEnv === "staging" && host === "localhost";
  if (url.protocol !== "https:" && !localHttp) return null;
  if (!redirectDomains.some((domain) => hostMatches(host, domain))) return null;
  url.searchParams.delete("status");
  url.searchParams.append("status", state);
  return url.toString();
}

function hostMatches(host: string, stored: string): boolean {
  const domain = stored.trim().toLowerCase().replace(/\.$/, "");
  if (!domain) return false;
  if (domain.startsWith("*.")) return host.endsWith(domain.slice(1));
  return host === domain || host.endsWith(`.${domain}`);
}
