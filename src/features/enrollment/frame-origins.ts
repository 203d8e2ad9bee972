import { getConfig } from "../../server/config";
import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { httpsOrigin } from "../../server/origins";
import { frameOrigins } from "./frame-origins.table";
import { isLoopbackHost, plainOrigin } from "./framing/frame-ancestors";

/**
 * decisions §4 `frame-origin add` (spec Domain allowlist): operator-configured HTTPS origins. In
 * staging, `http://localhost[:port]` and `http://127.0.0.1[:port]` are accepted too, for local demos
 * and tests (decisions §10 Framing); production accepts HTTPS origins only.
 */
export async function addFrameOrigin(tx: Tx, origin: string) {
  const accepted = frameOriginInput(origin, getConfig().appEnv);
  if (!accepted) throw errors.invalid(`Not an HTTPS origin: ${origin}`, "origin");
  await tx.insert(frameOrigins).values({ origin: accepted }).onConflictDoNothing();
  return { origin: accepted };
}

/** The canonical origin `frame-origin add` stores, or undefined when the environment refuses it. */
export function frameOriginInput(origin: string, appEnv: "staging" | "production"): string | undefined {
  const parsed = httpsOrigin.safeParse(origin);
  if (parsed.success) return parsed.data;
  if (appEnv !== "staging") return undefined;
  const loopback = plainOrigin(origin);
  return loopback && isLoopbackHost(new URL(loopback).hostname) ? loopback : undefined;
}
