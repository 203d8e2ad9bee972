import { randomBytes } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { resetRootSecrets } from "../../server/secrets";
import { newClient, newOwner, unique } from "../../test/factories";
import { call } from "../../test/http";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";
import { clientOwnerGrants } from "./clients.table";
import { idempotencyClaim } from "./idempotency";
import { IDEMPOTENCY_MESSAGES } from "./messages";
import { signRequest } from "./request-signature";
import { resetSigningKey, signAccessToken, TOKEN_LIFETIME_SECONDS } from "./tokens";

/**
 * The order of a partner request's checks around `Idempotency-Key`, and the token age
 * (docs/decisions.md, "Partner developer: idempotency keys" and "Partner developer: rate limits").
 */

const prospectCount = async (source: string, id: string) => {
  const db = await getDb();
  const [row] = (await db.execute(
    sql`select count(*)::int as n from prospects p join sources s on s.id = p.source_id where s.code = ${source} and p.source_prospect_id = ${id}`,
  )) as unknown as Array<{ n: number }>;
  return row.n;
};

describe("Idempotency-Key comes after the owner grant and the request signature", () => {
  it("a revoked grant answers 403 to the same key and body, never the kept answer", async () => {
    const partner = await prospectPartner();
    const key = unique("key");
    const body = completeProspect(partner.source);
    const first = await partner.post(body, { "idempotency-key": key });
    expect(first.status).toBe(200);
    const db = await getDb();
    await db.delete(clientOwnerGrants).where(and(eq(clientOwnerGrants.clientId, partner.client.clientId), eq(clientOwnerGrants.ownerId, partner.owner.id)));
    const again = await partner.post(body, { "idempotency-key": key });
    expect([again.status, again.headers.get("idempotent-replayed"), again.body]).toEqual([
      403,
      null,
      { status_code: 403, error: "Client is not authorized for this property owner" },
    ]);
  });

  it("a wrong request signature answers 401 to the same key and body, never the kept answer", async () => {
    const partner = await prospectPartner({ requireSignature: true });
    const key = unique("key");
    const raw = JSON.stringify({ prospect: completeProspect(partner.source) });
    const path = `${partner.base}/prospects`;
    const signature = signRequest(partner.client.secret, { method: "POST", pathWithQuery: path, rawBody: raw });
    const first = await call("POST", path, { token: partner.token, rawBody: raw, headers: { "x-request-signature": signature, "idempotency-key": key } });
    expect(first.status).toBe(200);
    const forged = signature.replace(/v1=(.)/, (_, digit) => `v1=${digit === "0" ? "1" : "0"}`);
    const attempts: Array<Record<string, string>> = [{ "x-request-signature": forged }, {}];
    for (const headers of attempts) {
      const again = await call("POST", path, { token: partner.token, rawBody: raw, headers: { ...headers, "idempotency-key": key } });
      expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([401, null]);
    }
  });
});

describe("a request still running keeps its Idempotency-Key claim", () => {
  const claimSeconds = idempotencyClaim.seconds;
  afterEach(() => {
    idempotencyClaim.seconds = claimSeconds;
  });

  it("a retry after the claim's first term answers 409 while the first request runs, and the prospect is written once", { timeout: 60_000 }, async () => {
    const partner = await prospectPartner();
    // Two seconds instead of two minutes: the same rule, shortened.
    idempotencyClaim.seconds = 2;
    const key = unique("key");
    const id = unique("p");
    const body = completeProspect(partner.source, id);
    const db = await getDb();
    // The owner's merge gate, held as a merge holds it: the request waits on it, as a slow request would.
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = () => {};
    const holding = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const gate = db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(7420200, ${partner.owner.id})`);
      locked();
      await released;
    });
    await holding;
    const first = partner.post(body, { "idempotency-key": key });
    // Past the claim's first term (2 s), well within its extensions.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const retry = await partner.post(body, { "idempotency-key": key });
    expect([retry.status, retry.body]).toEqual([409, { status_code: 409, error: IDEMPOTENCY_MESSAGES.inFlight }]);
    release();
    await gate;
    expect((await first).status).toBe(200);
    expect(await prospectCount(partner.source, id)).toBe(1);
    const replay = await partner.post(body, { "idempotency-key": key });
    expect([replay.status, replay.headers.get("idempotent-replayed")]).toEqual([200, "true"]);
  });
});

describe("token age", () => {
  const keyA = process.env.MASTER_KEY as string;
  const setMasterKeys = (masterKey: string, previous?: string) => {
    process.env.MASTER_KEY = masterKey;
    if (previous) process.env.MASTER_KEY_PREVIOUS = previous;
    else delete process.env.MASTER_KEY_PREVIOUS;
    resetConfig();
    resetRootSecrets();
    resetSigningKey();
  };
  afterEach(() => setMasterKeys(keyA));

  it("refuses a token signed under MASTER_KEY_PREVIOUS whose lifetime exceeds the service's, and takes one that does not", async () => {
    const client = await newClient();
    const owner = await newOwner(client);
    const path = `/api/partners/${owner.slug}/webhooks/endpoints`;
    const claims = { clientId: client.clientId, gateway: "partner" as const, scopes: ["webhooks:manage" as const] };
    const now = Math.floor(Date.now() / 1000);
    const forever = await signAccessToken(claims, now - 30 * 86_400, now + 10 * 365 * 86_400);
    const longLived = await signAccessToken(claims, now - 60, now + 10 * 365 * 86_400);
    const fair = await signAccessToken(claims, now - 60, now - 60 + TOKEN_LIFETIME_SECONDS);
    setMasterKeys(randomBytes(32).toString("base64"), keyA);
    expect((await call("GET", path, { token: fair })).status).toBe(200);
    for (const token of [forever, longLived]) {
      const answer = await call("GET", path, { token });
      expect([answer.status, answer.body]).toEqual([401, { message: "Unauthorized" }]);
    }
  });

  it("refuses a token under the current key too when older than a token lives, or issued far ahead", async () => {
    const client = await newClient();
    const owner = await newOwner(client);
    const path = `/api/partners/${owner.slug}/webhooks/endpoints`;
    const claims = { clientId: client.clientId, gateway: "partner" as const, scopes: ["webhooks:manage" as const] };
    const now = Math.floor(Date.now() / 1000);
    const old = await signAccessToken(claims, now - TOKEN_LIFETIME_SECONDS - 10, now + 3600);
    const ahead = await signAccessToken(claims, now + 3600, now + 3600 + 60);
    for (const token of [old, ahead]) expect((await call("GET", path, { token })).status).toBe(401);
  });
});
