import { asc, eq } from "drizzle-orm";
import { z } from "zod";
import { getConfig } from "../../../server/config";
import type { Db } from "../../../server/db/client";
import { errors } from "../../../server/errors";
import { type AuditActor, recordAudit } from "../../audit/audit";
import { frameOriginOf } from "../frame-origins";
import { frameOrigins } from "../frame-origins.table";

/**
 * Operator frame origins in the console (spec Domain allowlist; decisions §4 `frame-origin add`,
 * §12 Access). The embedded pages' `frame-ancestors` are read from the table on every request
 * (framing/framing-headers.ts, no cache), so an added or removed origin applies to the next page load.
 */

export const frameOriginRow = z.object({ id: z.number().int(), origin: z.string(), created_at: z.string() });
type FrameOriginRow = z.infer<typeof frameOriginRow>;

const view = (row: typeof frameOrigins.$inferSelect): FrameOriginRow => ({ id: row.id, origin: row.origin, created_at: row.createdAt.toISOString() });

export async function listFrameOrigins(db: Db): Promise<FrameOriginRow[]> {
  return (await db.select().from(frameOrigins).orderBy(asc(frameOrigins.origin))).map(view);
}

/**
 * Validated exactly as the CLI: HTTPS origins; in staging also `http://localhost[:port]`, `http://127.0.0.1[:port]`.
 * An origin already listed is a conflict for the console; the CLI (`ifListed: "keep"`, idempotent as
 * decisions §4 `frame-origin add` has always been) gets the listed row, and no audit row is written.
 */
export async function addFrameOriginByStaff(
  db: Db,
  actor: AuditActor,
  value: string,
  options: { ifListed?: "conflict" | "keep" } = {},
): Promise<FrameOriginRow> {
  const origin = frameOriginOf(value, getConfig().appEnv);
  if (!origin) {
    const also = getConfig().appEnv === "staging" ? " (or http://localhost[:port], http://127.0.0.1[:port] in staging)" : "";
    throw errors.invalid(`Origin must be an HTTPS origin like https://portal.example.com${also}, without a path`, "origin");
  }
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(frameOrigins).values({ origin }).onConflictDoNothing().returning();
    if (!row && options.ifListed === "keep") {
      const [listed] = await tx.select().from(frameOrigins).where(eq(frameOrigins.origin, origin));
      if (listed) return view(listed);
    }
    if (!row) throw errors.conflict(`${origin} is already a frame origin`);
    await recordAudit(tx, actor, { action: "frame_origin.added", subject: { type: "frame_origin", id: row.id }, after: { origin } });
    return view(row);
  });
}

export async function removeFrameOrigin(db: Db, actor: AuditActor, id: number): Promise<{ removed: FrameOriginRow }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(frameOrigins).where(eq(frameOrigins.id, id)).returning();
    if (!row) throw errors.notFound(`No frame origin ${id}`);
    await recordAudit(tx, actor, { action: "frame_origin.removed", subject: { type: "frame_origin", id }, before: { origin: row.origin } });
    return { removed: view(row) };
  });
}
