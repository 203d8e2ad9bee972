import { isIP } from "node:net";

/**
 * The client address a console sign-in is counted under (decisions §15: 20 failures per client
 * address). The web process's front server sets `X-Forwarded-For` to the address it trusts (the
 * socket's, or with `TRUST_PROXY=1` the one the reverse proxy appended: src/server/http/front-server.ts),
 * so the last entry is read. An IPv6 client counts by its /64 (one host's usual allotment), so it
 * cannot step around the limit through its own addresses. Anything else counts as `unknown`.
 */
export function clientAddressOf(headers: Record<string, string | string[] | undefined> | undefined): string {
  const header = headers?.["x-forwarded-for"];
  const value = Array.isArray(header) ? header.join(",") : (header ?? "");
  const last = value.split(",").at(-1)?.trim() ?? "";
  const address = last.toLowerCase().startsWith("::ffff:") && isIP(last.slice(7)) === 4 ? last.slice(7) : last;
  if (isIP(address) === 4) return address;
  if (isIP(address) === 6) return `${ipv6Groups(address).slice(0, 4).join(":")}::/64`;
  return "unknown";
}

/** The eight groups of an IPv6 address, `::` expanded, without leading zeros. */
function ipv6Groups(address: string): string[] {
  const [head, tail] = address.split("%")[0].split("::");
  const groupsOf = (part: string | undefined) => (part ? part.split(":") : []);
  const left = groupsOf(head);
  const right = tail === undefined ? [] : groupsOf(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  return groups.map((group) => (group.includes(".") ? group : Number.parseInt(group, 16).toString(16)));
}
