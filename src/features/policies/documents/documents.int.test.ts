import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { GET } from "@/app/documents/[file]/route";
import { getDb } from "@/server/db/client";
import { insertBarePolicy } from "../policy-test-helpers";
import { buildPolicyArchive } from "./archive";
import { pdfText, sampleDeclarations, unzip } from "./document-test-helpers";
import { ARCHIVE_CACHE_CONTROL, documentResponse } from "./serve";
import { archivesOfPolicy, DOCUMENT_KEY_PATTERN, deleteArchivesOfPolicies, findArchiveByKey, storePolicyArchive } from "./storage";

/** A real policy row: archives reference their policy. */
const policyId = () => insertBarePolicy();

/** The route as Next serves it: a real Request, the segment as Next hands it over (decoded). */
async function get(file: string, headers: Record<string, string> = {}, method = "GET") {
  const request = new Request(`http://localhost:3999/documents/${encodeURIComponent(file)}`, { method, headers });
  return GET(request, { params: Promise.resolve({ file }) });
}

async function store(id: number, coverageAmountCents: number) {
  const archive = await buildPolicyArchive(sampleDeclarations({ coverageAmountCents }));
  const db = await getDb();
  return { archive, stored: await db.transaction((tx) => storePolicyArchive(tx, { policyId: id, archive })) };
}

describe("stored policy archives (decisions §11 Documents)", () => {
  it("stores under an unguessable key and serves the exact bytes as a zip download", async () => {
    const { archive, stored } = await store(await policyId(), 150000);
    expect(stored.key).toMatch(DOCUMENT_KEY_PATTERN);
    expect(Buffer.from(stored.key, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    expect(stored.url).toBe(`http://localhost:3999/documents/${stored.key}.zip`);

    const response = await get(`${stored.key}.zip`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="policy-SDI-2026-000123.zip"');
    expect(response.headers.get("cache-control")).toBe(ARCHIVE_CACHE_CONTROL);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const body = new Uint8Array(await response.arrayBuffer());
    expect(Buffer.from(body).equals(Buffer.from(archive.bytes))).toBe(true);
    expect(response.headers.get("content-length")).toBe(String(archive.bytes.length));
    const sha256 = createHash("sha256").update(body).digest("hex");
    expect(response.headers.get("etag")).toBe(`"${sha256}"`);

    const row = await findArchiveByKey(await getDb(), stored.key);
    expect(row?.sha256).toBe(sha256);
    expect(row?.byteSize).toBe(archive.bytes.length);
    expect(row?.contentType).toBe("application/zip");
    expect(row?.filename).toBe("policy-SDI-2026-000123.zip");
  });

  it("keeps every generation: a regeneration gets a new key and the old link keeps its old content", async () => {
    const id = await policyId();
    const first = await store(id, 150000);
    const second = await store(id, 200000);
    expect(second.stored.key).not.toBe(first.stored.key);

    for (const [{ stored }, coverage] of [
      [first, "$1,500.00"],
      [second, "$2,000.00"],
    ] as const) {
      const response = await get(`${stored.key}.zip`);
      expect(response.status).toBe(200);
      const files = unzip(new Uint8Array(await response.arrayBuffer()));
      expect(await pdfText(files["policy-SDI-2026-000123/declarations.pdf"])).toContain(`Coverage amount ${coverage}`);
    }

    const versions = await archivesOfPolicy(await getDb(), id);
    expect(versions.map((v) => v.key)).toEqual([second.stored.key, first.stored.key]);
    expect(versions[0]).toMatchObject({ policyId: id, url: second.stored.url, byteSize: second.archive.bytes.length });
    expect(versions[0]).not.toHaveProperty("content");
    expect(await archivesOfPolicy(await getDb(), await policyId())).toEqual([]);
  });

  it("answers 404 in the API's shape for unknown and malformed keys, never a 5xx", async () => {
    const { stored } = await store(await policyId(), 150000);
    const bad = [
      "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.zip", // well-formed, unknown
      stored.key, // no extension
      `${stored.key}.pdf`,
      `${stored.key}.zip.zip`,
      `${stored.key.slice(1)}.zip`,
      `${stored.key}A.zip`,
      `${stored.key.slice(0, 31)}\u0000.zip`,
      "\u0000",
      `${"A".repeat(100_000)}.zip`,
      "../../etc/passwd",
      "%00.zip",
      `${stored.key.slice(0, 31)}é.zip`,
      "",
    ];
    for (const file of bad) {
      const response = await get(file);
      expect(response.status, JSON.stringify(file.slice(0, 40))).toBe(404);
      expect(await response.json()).toEqual({ status_code: 404, error: "Not found" });
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
    for (const key of ["", "\u0000", `${stored.key.slice(0, 31)}\u0000`, "A".repeat(100_000), `${stored.key}.zip`, "' or 1=1 --"])
      expect(await findArchiveByKey(await getDb(), key)).toBeUndefined();
  });

  it("answers 304 to a matching If-None-Match and HEAD without a body", async () => {
    const { stored } = await store(await policyId(), 150000);
    const first = await get(`${stored.key}.zip`);
    const etag = first.headers.get("etag") ?? "";
    const cached = await documentResponse(
      await getDb(),
      new Request("http://localhost:3999/x", { headers: { "if-none-match": `W/"nope", ${etag}` } }),
      `${stored.key}.zip`,
    );
    expect(cached.status).toBe(304);
    expect(await cached.text()).toBe("");
    expect((await get(`${stored.key}.zip`, { "if-none-match": '"other"' })).status).toBe(200);
    const head = await get(`${stored.key}.zip`, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(first.headers.get("content-length"));
    expect(await head.text()).toBe("");
  });

  it("deletes a policy's archives with its policy (the staging reset) and only those", async () => {
    const gone = await policyId();
    const kept = await policyId();
    const { stored: goneArchive } = await store(gone, 150000);
    await store(gone, 160000);
    const { stored: keptArchive } = await store(kept, 150000);
    const db = await getDb();
    expect(await db.transaction((tx) => deleteArchivesOfPolicies(tx, [gone]))).toBe(2);
    expect(await deleteArchivesOfPolicies(db, [])).toBe(0);
    expect((await get(`${goneArchive.key}.zip`)).status).toBe(404);
    expect((await get(`${keptArchive.key}.zip`)).status).toBe(200);
  });
});
