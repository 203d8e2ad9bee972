import { getConfig } from "../../server/config";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { toOrigin } from "../../server/origins";
import { frameOrigins } from "./frame-origins.table";

/** decisions §10: the local hosts staging also accepts over plain HTTP, for local demos and tests. */
const LOCAL_HTTP_HOSTS: ReadonlySet<string> = new Set(["localhost", "127.0.0.1"]);

/**
 * The origin an operator may allowlist for framing (spec Domain allowlist), or undefined.
 * HTTPS origins everywhere; in staging also `http://localhost[:port]` and `http://127.0.0.1[:port]`
 * (decisions §10), refused in production.
 */
export function frameOriginOf(value: string, appEnv: "staging" | "production"): string | undefined {
  const https = toOrigin(value);
  if (https) return https;
  if (appEnv !== "staging") return undefined;
  return localHttpOrigin(value);
}

/** `http://localhost[:port]` or `http://127.0.0.1[:port]`, nothing more (no path, credentials, query). */
function localHttpOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" || !LOCAL_HTTP_HOSTS.has(url.hostname)) return undefined;
    if (url.username || url.password || url.search || url.hash || url.pathname !== "/") return undefined;
    if (/^http:\/\/[^/]+\/./i.test(value)) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/** decisions §4 `frame-origin add` (spec Domain allowlist): operator-configured origins. Idempotent. */
export async function addFrameOrigin(tx: Tx, origin: string) {
  const parsed = frameOriginOf(origin, getConfig().appEnv);
  if (!parsed) throw errors.invalid(`Not an HTTPS origin: ${origin}`, "origin");
  await tx.insert(frameOrigins).values({ origin: parsed }).onConflictDoNothing();
  return { origin: parsed };
}
