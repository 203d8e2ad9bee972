import type { Tx } from "../../server/db/client";
import { errors } from "../../server/errors";
import { httpsOrigin } from "../../server/origins";
import { frameOrigins } from "./frame-origins.table";

/** decisions §4 `frame-origin add` (spec Domain allowlist): operator-configured HTTPS origins. */
export async function addFrameOrigin(tx: Tx, origin: string) {
  const parsed = httpsOrigin.safeParse(origin);
  if (!parsed.success) throw errors.invalid(`Not an HTTPS origin: ${origin}`, "origin");
  await tx.insert(frameOrigins).values({ origin: parsed.data }).onConflictDoNothing();
  return { origin: parsed.data };
}
