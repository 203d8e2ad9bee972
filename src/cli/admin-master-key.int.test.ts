import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { getTableName, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { SEALED_COLUMNS } from "../composition/sealed-columns";
import { resetSigningKey } from "../features/auth/tokens";
import { parseSignedLink } from "../features/enrollment/flow/link";
import { ingestionEvents } from "../features/ingestion/ingestion-events.table";
import { sealNeverEchoed } from "../features/ingestion/sealed-fields";
import { mergeOwners } from "../features/owners/merge/merge";
import { enrollmentUrl } from "../features/prospects/enrollment-links";
import { completeProspect, prospectPartner } from "../features/prospects/prospect-test-helpers";
import { createProvider } from "../features/webhooks/providers";
import { rotateOwnerSecret } from "../features/webhooks/secrets";
import { resetConfig } from "../server/config";
import { getDb } from "../server/db/client";
import { currentSealPrefix, decryptSecret, resetRootSecrets } from "../server/secrets";
import { newOwner, unique } from "../test/factories";
import { call } from "../test/http";
import { admin } from "./admin-test-helpers";

/**
 * docs/decisions.md, Hardening: production start (rotating MASTER_KEY): values sealed under key A
 * stay readable with MASTER_KEY=B and MASTER_KEY_PREVIOUS=A, `master-key rotate` re-seals them under
 * B (printing counts, never values, and finding nothing the second time), and B alone then reads all.
 */
type Sealed = { name: string; id: unknown; sealed: string };

async function sealedValues(): Promise<Sealed[]> {
  const db = await getDb();
  const values: Sealed[] = [];
  for (const column of SEALED_COLUMNS) {
    const rows = (await db.execute(
      sql`select ${column.id} as id, ${column.sealed} as sealed from ${column.table} where ${column.sealed} is not null order by 1`,
    )) as unknown as Array<{ id: unknown; sealed: string }>;
    for (const row of rows) values.push({ name: `${getTableName(column.table)}.${column.sealed.name}`, ...row });
  }
  return values;
}

function useKeys(masterKey: string, previous?: string): void {
  process.env.MASTER_KEY = masterKey;
  if (previous) process.env.MASTER_KEY_PREVIOUS = previous;
  else delete process.env.MASTER_KEY_PREVIOUS;
  resetConfig();
  resetRootSecrets();
  resetSigningKey();
}

/** The real CLI in its own process, as an operator runs it. */
function rotate(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/admin.ts", "master-key", "rotate"], { stdio: ["ignore", "pipe", "pipe"], env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => {
    stdout += chunk;
  });
  child.stderr.on("data", (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve) => child.once("close", (code) => resolve({ code, stdout, stderr })));
}

describe("master-key rotate", () => {
  it("re-seals every sealed value under the new key while the old one is read, idempotently, printing counts only", async () => {
    const keyA = process.env.MASTER_KEY as string;
    const keyB = randomBytes(32).toString("base64");
    const db = await getDb();

    // Values sealed under A in every sealed column: a client secret, signing secrets (current,
    // previous, a merged duplicate's, a provider's), a bank account number, an SSN and a pending
    // ingestion event's sealed fields.
    const { client, owner, token, source, post } = await prospectPartner();
    expect((await post(completeProspect(source, unique("p"), { social_security_number: "123-45-6789" }))).status).toBeLessThan(300);
    await rotateOwnerSecret(db, owner.id);
    const duplicate = await newOwner(client);
    await mergeOwners(db, { cli: "test" }, { from: duplicate.slug, into: owner.slug });
    const providerCode = unique("prov").replace("-", "_");
    await createProvider(db, { code: providerCode, clientId: client.clientId });
    // No provider rotation is offered; its previous secret is written as a rotation would leave it.
    await db.execute(sql`update providers set previous_signing_secret_encrypted = signing_secret_encrypted where code = ${providerCode}`);
    // A pending ingestion event's never-echoed values, sealed apart from its stored body.
    const sealedEvent = sealNeverEchoed({ type: "prospect.updated", data: { social_security_number: "987-65-4321" } });
    expect(sealedEvent.sealedFields).not.toBeNull();
    await db.insert(ingestionEvents).values({ clientId: client.clientId, body: sealedEvent.body, sealedFields: sealedEvent.sealedFields });
    // A value sealed before key ids (v1): the same cipher text without the key id.
    const [first] = (await db.execute(sql`select secret_encrypted from api_clients where id = ${client.clientId}`)) as unknown as Array<{
      secret_encrypted: string;
    }>;
    const [, , ...rest] = (first as { secret_encrypted: string }).secret_encrypted.split(":");
    await db.execute(sql`update api_clients set secret_encrypted = ${["v1", ...rest].join(":")} where id = ${client.clientId}`);

    // An enrollment link as a renter received it before the rotation.
    const linkParts = { flow: "embedded" as const, ownerSlug: owner.slug, source, sourceProspectId: "renter-1", email: "rita@example.com" };
    const link = {
      flow: "embedded",
      owner: owner.slug,
      source,
      id: "renter-1",
      email: "rita@example.com",
      sig: new URL(enrollmentUrl(linkParts)).searchParams.get("sig") ?? "",
    };

    const before = await sealedValues();
    const plain = new Map(before.map((value) => [`${value.name}#${value.id}`, decryptSecret(value.sealed)]));
    const expected: Record<string, number> = {};
    for (const column of SEALED_COLUMNS) expected[`${getTableName(column.table)}.${column.sealed.name}`] = 0;
    for (const value of before) expected[value.name] = (expected[value.name] ?? 0) + 1;
    for (const [name, count] of Object.entries(expected)) expect(count, name).toBeGreaterThan(0);

    // Restarted with the new key and the old one as previous: everything still reads, and a token
    // issued under A still authenticates until it expires.
    useKeys(keyB, keyA);
    for (const value of await sealedValues()) expect(decryptSecret(value.sealed)).toBe(plain.get(`${value.name}#${value.id}`));
    expect((await call("GET", `/api/partners/${owner.slug}/webhooks/endpoints`, { token })).status).toBe(200);
    expect(parseSignedLink(link)).toBeDefined();
    const shown = await admin("owner", "secret", "--owner", owner.slug);
    expect(shown.code, shown.err).toBe(0);

    const env = { ...process.env, MASTER_KEY: keyB, MASTER_KEY_PREVIOUS: keyA };
    const run = await rotate(env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ resealed: expected, unreadable: {} });
    for (const secret of plain.values()) expect(run.stdout + run.stderr).not.toContain(secret);
    const [trail] = (await (
      await getDb()
    ).execute(sql`select actor_label, after from audit_log where action = 'master_key.rotate' order by id desc limit 1`)) as unknown as Array<{
      actor_label: string;
      after: unknown;
    }>;
    expect(trail).toMatchObject({ actor_label: expect.stringMatching(/^cli:/), after: { resealed: expected, unreadable: {} } });
    const again = await rotate(env);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ resealed: Object.fromEntries(Object.keys(expected).map((name) => [name, 0])), unreadable: {} });

    // The old key removed: every value is under B and reads.
    useKeys(keyB);
    const after = await sealedValues();
    expect(after).toHaveLength(before.length);
    for (const value of after) {
      expect(value.sealed.startsWith(currentSealPrefix())).toBe(true);
      expect(decryptSecret(value.sealed)).toBe(plain.get(`${value.name}#${value.id}`));
    }
    // Links are signed, not stored: one signed under the removed key no longer opens (docs/operations.md).
    expect(parseSignedLink(link)).toBeUndefined();
  }, 90_000);
});
