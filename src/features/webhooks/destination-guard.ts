import { lookup, Resolver } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { getConfig } from "../../server/config";
import { errors } from "../../server/errors";
import { WEBHOOK_MESSAGES } from "./messages";

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
    const addresses = await lookupAddresses(host, AbortSignal.timeout(REGISTRATION_LOOKUP_MS));
    return addresses.some((entry) => isBlockedAddress(entry.address)) ? "private" : null;
  } catch {
    // Not resolvable yet (or no answer in time): accepted; each delivery resolves again and refuses blocked addresses.
    return null;
  }
}

/** How long a registration waits for DNS before accepting the name unresolved. */
const REGISTRATION_LOOKUP_MS = 5_000;

type Address = { address: string; family: number };

/** Answers of a nameserver that is up: the name has no address in DNS (it may still be in /etc/hosts). */
const NO_SUCH_NAME = new Set(["ENOTFOUND", "ENODATA", "NOTFOUND", "NODATA"]);

/** Rejects with `signal`'s reason when it aborts first: nothing waits past its deadline. */
export function beforeDeadline<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/**
 * The addresses of a host name, IPv4 first, answered before `signal` aborts (docs/decisions.md,
 * Hardening: deliveries). DNS is asked through c-ares (`Resolver`: sockets on the event loop, never
 * libuv's thread pool, which a nameserver that never answers would fill) at `WEBHOOK_DNS_SERVERS` or
 * the system's nameservers; its queries are cancelled at the deadline. `localhost` names are loopback
 * (RFC 6761 §6.3). Only a name DNS says does not exist is looked up again through the system
 * (`/etc/hosts` names), under the same deadline.
 */
export async function lookupAddresses(host: string, signal: AbortSignal): Promise<Address[]> {
  if (host === "localhost" || host.endsWith(".localhost")) {
    return [
      { address: "127.0.0.1", family: 4 },
      { address: "::1", family: 6 },
    ];
  }
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  const servers = getConfig().webhookDnsServers;
  if (servers.length > 0) resolver.setServers(servers);
  const cancel = () => resolver.cancel();
  signal.addEventListener("abort", cancel, { once: true });
  try {
    const [v4, v6] = await beforeDeadline(Promise.allSettled([resolver.resolve4(host), resolver.resolve6(host)]), signal);
    const addresses = [
      ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    const failures = [v4, v6].flatMap((answer) => (answer.status === "rejected" ? [answer.reason as NodeJS.ErrnoException] : []));
    const unknown = failures.every((error) => NO_SUCH_NAME.has(error.code ?? ""));
    if (!unknown) throw failures[0];
    return await beforeDeadline(lookup(host, { all: true, verbatim: true }), signal);
  } finally {
    signal.removeEventListener("abort", cancel);
  }
}

/**
 * Delivery check (DNS resolved first, before `signal`'s deadline): the address to connect to, pinned so
 * a second lookup cannot swap in a private address between the check and the connection.
 */
export async function resolveDestination(hostname: string, signal: AbortSignal): Promise<Address> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const [entry] = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookupAddresses(host, signal);
  if (!entry) throw errors.unavailable(`DNS lookup of ${host} returned no address`);
  // The reason is shown to the partner: it must not say what the name resolved to, or the guard
  // answers questions about internal names (docs/decisions.md, "Second security review").
  if (!getConfig().allowPrivateWebhookDestinations && isBlockedAddress(entry.address)) throw errors.forbidden(WEBHOOK_MESSAGES.blockedDestination);
  return entry;
}
