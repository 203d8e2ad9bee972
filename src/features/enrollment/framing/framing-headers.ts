import { eq, sql } from "drizzle-orm";
import { getDb, type Tx } from "../../../server/db/client";
import { logger } from "../../../server/log";
import { propertyOwners } from "../../owners/owners.table";
import { frameOrigins } from "../frame-origins.table";
import { frameAncestorsHeader, HOSTED_FRAMING_HEADERS, NO_FRAMING } from "./frame-ancestors";

/** Where enrollment pages live (`src/app/enroll/[flow]/[owner]/…`); the links are `…/<flow>/<owner_slug>/…`. */
const ENROLLMENT_PREFIX = "/enroll/";
/** A database that has not answered by then gets the closed answer rather than an unframed page. */
export const FRAMING_LOOKUP_TIMEOUT_MS = 2_000;

export type FramingTarget = { kind: "embedded"; ownerSlug: string } | { kind: "hosted" };

/**
 * Which framing rule a request path falls under (decisions §10 Framing): `/enroll/embedded/<owner>/…`
 * is an embedded page of that owner; every other path under `/enroll/` (the expedited flow, an unknown
 * flow, a malformed link) must never be framed. Undefined outside the enrollment pages.
 */
export function framingTargetOf(pathname: string): FramingTarget | undefined {
  if (!pathname.startsWith(ENROLLMENT_PREFIX)) return undefined;
  const [flow, owner] = pathname.slice(ENROLLMENT_PREFIX.length).split("/");
  if (flow !== "embedded" || !owner) return { kind: "hosted" };
  try {
    return { kind: "embedded", ownerSlug: decodeURIComponent(owner) };
  } catch {
    return { kind: "hosted" };
  }
}

/**
 * The owner's `embedded_frame_ancestors` and every operator frame origin, in one query on the
 * owner's unique slug index (plus the small `frame_origins` table). Undefined for an unknown owner.
 * A merged duplicate's slug answers its survivor's list: its links open under the survivor
 * (decisions §15; flow/state.ts `loadRecord`).
 */
export async function frameAncestorListsOf(tx: Tx, ownerSlug: string): Promise<{ owner: string[]; operator: string[] } | undefined> {
  const [row] = await tx
    .select({
      owner: propertyOwners.embeddedFrameAncestors,
      operator: sql<string[]>`coalesce((select json_agg(${frameOrigins.origin}) from ${frameOrigins}), '[]'::json)`,
    })
    .from(propertyOwners)
    .where(eq(propertyOwners.id, sql`(select coalesce(o.merged_into_id, o.id) from property_owners o where o.slug = ${ownerSlug})`));
  return row ? { owner: row.owner ?? [], operator: row.operator ?? [] } : undefined;
}

/**
 * The `Content-Security-Policy` of one owner's embedded pages; `'none'` for an unknown owner and —
 * failing closed — when the database errs or is slower than FRAMING_LOOKUP_TIMEOUT_MS.
 */
export async function embeddedFrameAncestors(ownerSlug: string, db?: Tx): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), FRAMING_LOOKUP_TIMEOUT_MS);
  });
  try {
    const lookup = (async () => frameAncestorListsOf(db ?? (await getDb()), ownerSlug))();
    const lists = await Promise.race([lookup, timeout]);
    if (lists === "timeout") {
      lookup.catch(() => {}); // settles later; its outcome no longer matters
      logger().warn({ timeoutMs: FRAMING_LOOKUP_TIMEOUT_MS }, "frame-ancestors lookup timed out: answering 'none'");
      return NO_FRAMING;
    }
    return lists ? frameAncestorsHeader(lists.owner, lists.operator) : NO_FRAMING;
  } catch (error) {
    logger().error({ err: error }, "frame-ancestors lookup failed: answering 'none'");
    return NO_FRAMING;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The framing headers of a request path (decisions §10 Framing), or undefined when the path is not
 * an enrollment page. Embedded pages: the owner's `frame-ancestors` list and no `X-Frame-Options`
 * (a CSP `frame-ancestors` supersedes it and it cannot name several origins). Hosted pages:
 * `frame-ancestors 'none'` and `X-Frame-Options: DENY`. Never throws.
 */
export async function framingHeadersFor(pathname: string, db?: Tx): Promise<Record<string, string> | undefined> {
  const target = framingTargetOf(pathname);
  if (!target) return undefined;
  if (target.kind === "hosted") return { ...HOSTED_FRAMING_HEADERS };
  return { "Content-Security-Policy": await embeddedFrameAncestors(target.ownerSlug, db) };
}
