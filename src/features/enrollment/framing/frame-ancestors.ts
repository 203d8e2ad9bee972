/**
 * The `frame-ancestors` rules of decisions §10 "Framing" (spec Domain allowlist), as pure functions.
 * Embedded pages list exactly the owner's `embedded_frame_ancestors` ∪ the operator's frame
 * origins — never `'self'`, a wildcard or a scheme source — and `'none'` when that union is empty.
 * Hosted (expedited) pages can never be framed.
 */

export const NO_FRAMING = "frame-ancestors 'none'";

/** Headers of every page that must never be framed (decisions §10: hosted pages). */
export const HOSTED_FRAMING_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Security-Policy": NO_FRAMING,
  "X-Frame-Options": "DENY",
});

// A host a CSP source expression can carry verbatim: DNS labels (punycode after URL parsing) or an
// IPv4 / bracketed IPv6 literal. The WHATWG parser lets `;` and `,` through in hosts, which would
// inject directives into the header: anything else is refused.
const SAFE_HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$|^\[[0-9a-f:.]+\]$/;
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * `value` as a canonical origin (`scheme://host[:port]`, lower case, default port dropped), or
 * undefined when it is anything else: a path, query, fragment or credentials, a wildcard, a keyword,
 * a scheme source. HTTPS always; HTTP only on a loopback host (decisions §10: staging's local
 * demos and tests — production never stores one, see `frameOriginOf`).
 */
export function plainOrigin(value: string): string | undefined {
  const text = value.trim();
  if (!/^https?:\/\/[^/?#]+\/?$/i.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.username || url.password || !SAFE_HOST.test(url.hostname)) return undefined;
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) return undefined;
  return url.origin;
}

export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/**
 * The `Content-Security-Policy` value of an embedded page: the valid origins of both lists,
 * normalized, deduplicated and sorted (a stable header); `frame-ancestors 'none'` when none is left.
 */
export function frameAncestorsHeader(ownerOrigins: readonly string[], operatorOrigins: readonly string[]): string {
  const origins = new Set<string>();
  for (const value of [...ownerOrigins, ...operatorOrigins]) {
    const origin = typeof value === "string" ? plainOrigin(value) : undefined;
    if (origin) origins.add(origin);
  }
  if (origins.size === 0) return NO_FRAMING;
  return `frame-ancestors ${[...origins].sort().join(" ")}`;
}
