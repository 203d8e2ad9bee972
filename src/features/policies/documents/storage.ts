import { createHash, randomBytes } from "node:crypto";
import { desc, eq, inArray } from "drizzle-orm";
import { getConfig } from "@/server/config";
import type { Tx } from "@/server/db/client";
import type { PolicyArchive } from "./archive";
import { policyDocuments } from "./policy-documents.table";

/**
 * Where document archives are kept and how they are addressed (decisions §11 Documents; the URL and
 * key format are in docs/decisions.md, Policies). Links are not access-controlled (spec), so the
 * key is the only secret: 24 random bytes (192 bits) in base64url, 32 characters.
 */
const KEY_BYTES = 24;
export const DOCUMENT_KEY_PATTERN = /^[A-Za-z0-9_-]{32}$/;
export const ARCHIVE_CONTENT_TYPE = "application/zip";
/** The public path of an archive: `/documents/<key>.zip`. */
export const DOCUMENTS_PATH = "/documents";

export type StoredArchive = { key: string; url: string };

export type ArchiveVersion = {
  id: number;
  policyId: number;
  key: string;
  url: string;
  filename: string;
  contentType: string;
  byteSize: number;
  sha256: string;
  createdAt: Date;
};

export type ArchiveObject = ArchiveVersion & { content: Buffer };

export function documentUrl(key: string): string {
  return `${getConfig().publicBaseUrl}${DOCUMENTS_PATH}/${key}.zip`;
}

export function newDocumentKey(): string {
  return randomBytes(KEY_BYTES).toString("base64url");
}

/**
 * Stores one generation of a policy's archive under a new key; earlier generations stay served
 * under theirs. Call it inside the transaction that emits `policy.documents_updated` with `url`.
 */
export async function storePolicyArchive(tx: Tx, { policyId, archive }: { policyId: number; archive: PolicyArchive }): Promise<StoredArchive> {
  const content = Buffer.from(archive.bytes.buffer, archive.bytes.byteOffset, archive.bytes.byteLength);
  const key = newDocumentKey();
  await tx.insert(policyDocuments).values({
    policyId,
    key,
    filename: archive.filename,
    contentType: ARCHIVE_CONTENT_TYPE,
    content,
    byteSize: content.byteLength,
    sha256: createHash("sha256").update(content).digest("hex"),
  });
  return { key, url: documentUrl(key) };
}

const versionColumns = {
  id: policyDocuments.id,
  policyId: policyDocuments.policyId,
  key: policyDocuments.key,
  filename: policyDocuments.filename,
  contentType: policyDocuments.contentType,
  byteSize: policyDocuments.byteSize,
  sha256: policyDocuments.sha256,
  createdAt: policyDocuments.createdAt,
};

/** The archive stored under `key`, content included; undefined for an unknown or malformed key. */
export async function findArchiveByKey(db: Tx, key: string): Promise<ArchiveObject | undefined> {
  // A malformed key (NUL bytes, a megabyte of text) never reaches the database.
  if (!DOCUMENT_KEY_PATTERN.test(key)) return undefined;
  const [row] = await db
    .select({ ...versionColumns, content: policyDocuments.content })
    .from(policyDocuments)
    .where(eq(policyDocuments.key, key))
    .limit(1);
  return row ? { ...row, url: documentUrl(row.key) } : undefined;
}

/** Every generation of a policy's archive, newest first, without content. */
export async function archivesOfPolicy(db: Tx, policyId: number): Promise<ArchiveVersion[]> {
  const rows = await db.select(versionColumns).from(policyDocuments).where(eq(policyDocuments.policyId, policyId)).orderBy(desc(policyDocuments.id));
  return rows.map((row) => ({ ...row, url: documentUrl(row.key) }));
}

/** For the staging reset (decisions §10: policies are cleared for real): their archives go with them. */
export async function deleteArchivesOfPolicies(tx: Tx, policyIds: number[]): Promise<number> {
  if (policyIds.length === 0) return 0;
  const deleted = await tx.delete(policyDocuments).where(inArray(policyDocuments.policyId, policyIds)).returning({ id: policyDocuments.id });
  return deleted.length;
}
