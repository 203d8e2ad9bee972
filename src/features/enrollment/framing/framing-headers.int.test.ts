import { drizzle } from "drizzle-orm/postgres-js";
import { NextRequest } from "next/server";
import postgres from "postgres";
import { describe, expect, it } from "vitest";
import { proxy } from "../../../proxy";
import { getDb } from "../../../server/db/client";
import { newClient, newOwner, unique } from "../../../test/factories";
import { call } from "../../../test/http";
import { addFrameOrigin } from "../frame-origins";
import { frameOrigins } from "../frame-origins.table";
import { framingHeadersFor } from "./framing-headers";

const ROLLBACK = Symbol("rollback");

/** An owner whose `embedded_frame_ancestors` were set through the Partner API (spec Property owner). */
async function ownerWithAncestors(origins: string[]) {
  const client = await newClient();
  const owner = await newOwner(client);
  const answer = await call("POST", "/api/partners/property_owners", {
    token: await client.token(),
    body: { external_org_id: owner.externalOrgId, embedded_frame_ancestors: origins },
  });
  expect(answer.status).toBe(200);
  return owner;
}

const csp = async (path: string) => (await framingHeadersFor(path))?.["Content-Security-Policy"];

describe("framing headers per request (decisions §10 Framing)", () => {
  it("embedded pages list the owner's origins and the operator's, nothing else", async () => {
    const operator = `https://${unique("operator")}.example.com`;
    await addFrameOrigin(await getDb(), operator);
    const owner = await ownerWithAncestors(["https://Portal.Example.org", "https://leasing.example.org:8443"]);
    const header = await csp(`/enroll/embedded/${owner.slug}/src/p-1`);
    expect(header).toMatch(/^frame-ancestors https:\/\//);
    const listed = String(header).replace("frame-ancestors ", "").split(" ");
    expect(listed).toEqual([...listed].sort());
    expect(listed).toEqual(expect.arrayContaining(["https://portal.example.org", "https://leasing.example.org:8443", operator]));
    expect(listed).not.toContain("'self'");
    expect((await framingHeadersFor(`/enroll/embedded/${owner.slug}/src/p-1`))?.["X-Frame-Options"]).toBeUndefined();

    // Another owner's list never leaks into this one's.
    const other = await ownerWithAncestors(["https://other-portal.example.org"]);
    expect(await csp(`/enroll/embedded/${other.slug}/a/b`)).not.toContain("portal.example.org ");
    expect(await csp(`/enroll/embedded/${owner.slug}/a/b`)).not.toContain("other-portal");
  });

  it("answers 'none' when the owner and the operator list nothing", async () => {
    const owner = await ownerWithAncestors([]);
    const db = await getDb();
    // The operator list is shared by every test: empty it inside a transaction that is rolled back.
    const inside = await db
      .transaction(async (tx) => {
        await tx.delete(frameOrigins);
        const headers = await framingHeadersFor(`/enroll/embedded/${owner.slug}/src/p-1`, tx);
        throw Object.assign(new Error("rollback"), { [ROLLBACK]: headers });
      })
      .catch((error) => (error as Record<symbol, unknown>)[ROLLBACK]);
    expect(inside).toEqual({ "Content-Security-Policy": "frame-ancestors 'none'" });
  });

  it("an unknown owner gets 'none'; expedited and other enrollment paths get 'none' and DENY", async () => {
    await addFrameOrigin(await getDb(), "https://operator-always.example.com");
    expect(await framingHeadersFor(`/enroll/embedded/${unique("no-such-owner")}/src/p-1`)).toEqual({ "Content-Security-Policy": "frame-ancestors 'none'" });
    const owner = await ownerWithAncestors(["https://portal.example.org"]);
    const hosted = { "Content-Security-Policy": "frame-ancestors 'none'", "X-Frame-Options": "DENY" };
    expect(await framingHeadersFor(`/enroll/expedited/${owner.slug}/src/p-1`)).toEqual(hosted);
    expect(await framingHeadersFor(`/enroll/Embedded/${owner.slug}/src/p-1`)).toEqual(hosted);
    expect(await framingHeadersFor("/enroll/")).toEqual(hosted);
    expect(await framingHeadersFor("/api/partners/x")).toBeUndefined();
    expect(await framingHeadersFor("/enrollment")).toBeUndefined();
  });

  it("fails closed: a database that errs yields 'none', never a page without the header", async () => {
    const owner = await ownerWithAncestors(["https://portal.example.org"]);
    const unreachable = postgres("postgres://nobody@127.0.0.1:1/none", { max: 1, connect_timeout: 1, onnotice: () => {} });
    try {
      const headers = await framingHeadersFor(`/enroll/embedded/${owner.slug}/src/p-1`, drizzle(unreachable));
      expect(headers).toEqual({ "Content-Security-Policy": "frame-ancestors 'none'" });
    } finally {
      await unreachable.end({ timeout: 0 });
    }
  });

  it("src/proxy.ts sets them on enrollment pages, 'none' on other pages, and still refuses broken percent-encoding", async () => {
    const owner = await ownerWithAncestors(["https://portal.example.org"]);
    const embedded = await proxy(new NextRequest(`http://localhost:3999/enroll/embedded/${owner.slug}/src/p-1?email=a%40b.c&sig=x`));
    expect(embedded.headers.get("content-security-policy")).toContain("https://portal.example.org");
    expect(embedded.headers.get("x-frame-options")).toBeNull();
    const hosted = await proxy(new NextRequest(`http://localhost:3999/enroll/expedited/${owner.slug}/src/p-1`));
    expect(hosted.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    expect(hosted.headers.get("x-frame-options")).toBe("DENY");
    // The other page headers (decisions §15) beside their own framing.
    for (const page of [embedded, hosted]) {
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
      expect(page.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    }
    // Every other page is never framed; gateway paths answer their own headers.
    const consolePage = await proxy(new NextRequest("http://localhost:3999/console/prospects"));
    expect(consolePage.headers.get("content-security-policy")).toBe("frame-ancestors 'none'");
    expect(consolePage.headers.get("x-frame-options")).toBe("DENY");
    const api = await proxy(new NextRequest("http://localhost:3999/api/healthz"));
    expect(api.headers.get("content-security-policy")).toBeNull();
    expect(api.headers.get("x-frame-options")).toBeNull();
    const malformed = await proxy(new NextRequest("http://localhost:3999/enroll/embedded/%ZZ/a/b"));
    expect(malformed.status).toBe(400);
  });
});
