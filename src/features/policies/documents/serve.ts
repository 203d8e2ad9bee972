import type { Tx } from "@/server/db/client";
import { errors } from "@/server/errors";
import { restAnswerOf } from "@/server/http/error-wire";
import { findArchiveByKey } from "./storage";

/**
 * `GET /documents/<key>.zip` (decisions §11 Documents: served without credentials; docs/decisions.md,
 * Policies). The key is the only secret, so every failure looks the same: an unknown, malformed or
 * oversized key answers 404 `{status_code, error}` and never reaches the database.
 *
 * Caching: what a key names never changes (a regeneration gets a new key), so a browser may keep
 * it for a year; `private` keeps shared caches (proxies, CDNs) from holding renters' documents.
 */
export const ARCHIVE_CACHE_CONTROL = "private, max-age=31536000, immutable";
const FILE_PATTERN = /^([A-Za-z0-9_-]{32})\.zip$/;

export async function documentResponse(db: Tx, request: Request, file: string): Promise<Response> {
  const key = FILE_PATTERN.exec(file)?.[1];
  const archive = key ? await findArchiveByKey(db, key) : undefined;
  if (!archive) return notFound();
  const etag = `"${archive.sha256}"`;
  const headers = new Headers({
    "Content-Type": archive.contentType,
    "Content-Disposition": `attachment; filename="${archive.filename}"`,
    "Cache-Control": ARCHIVE_CACHE_CONTROL,
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    // An unguessable link is not for search engines, nor for the Referer of a page it links to.
    "X-Robots-Tag": "noindex",
    "Referrer-Policy": "no-referrer",
  });
  if (matchesEtag(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });
  headers.set("Content-Length", String(archive.byteSize));
  return new Response(request.method === "HEAD" ? null : new Uint8Array(archive.content), { status: 200, headers });
}

function notFound(): Response {
  const { status, body } = restAnswerOf(errors.notFound());
  return Response.json(body, { status, headers: { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" } });
}

/** RFC 9110 §13.1.2: a list of entity tags or `*` (weak comparison). */
function matchesEtag(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  return header.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag);
}
