import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { getConfig } from "../../server/config";
import { errors } from "../../server/errors";

/**
 * Addresses a webhook must never reach (issue: SSRF): loopback, private, carrier-grade NAT,
 * link-local (cloud metadata at 169.254.169.254), unspecified, multicast and reserved ranges.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  BLOCKED.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["64:ff9b::", 96],
  ["2001:db8::", 32],
] as const) {
  BLOCKED.addSubnet(network, prefix, "ipv6");
}

export function isBlockedAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 4) return BLOCKED.check(address, "ipv4");
  if (version !== 6) return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? BLOCKED.check(mapped[1], "ipv4") : BLOCKED.check(address, "ipv6");
}

export type UrlProblem = "not_https" | "private";

/** Registration check: HTTPS, and a host that is (or resolves to) no blocked address. */
export async function checkDestination(url: string): Promise<UrlProblem | null> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "not_https";
  }
  if (parsed.protocol !== "https:" || parsed.username || parsed.password) return "not_https";
  if (getConfig().allowPrivateWebhookDestinations) return null;
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return isBlockedAddress(host) ? "private" : null;
  if (host === "localhost" || host.endsWith(".localhost")) return "private";
  try {
    const addresses = await lookup(host, { all: true, verbatim: true });
    return addresses.some((entry) => isBlockedAddress(entry.address)) ? "private" : null;
  } catch {
    // Not resolvable yet: accepted; each delivery resolves again and refuses blocked addresses.
    return null;
  }
}

/**
 * Delivery check (DNS resolved first): the address to connect to, pinned so a second lookup cannot
 * swap in a private address between the check and the connection.
 */
export async function resolveDestination(hostname: string): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const [entry] = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  if (!entry) throw errors.unavailable(`DNS lookup of ${host} returned no address`);
  if (!getConfig().allowPrivateWebhookDestinations && isBlockedAddress(entry.address)) {
    throw errors.forbidden(`destination ${host} resolves to a blocked address (${entry.address})`);
  }
  return entry;
}
