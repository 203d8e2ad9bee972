import { and, eq } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { staff } from "@/test/console";
import { proxy } from "../../../proxy";
import { resetConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { appErrorOf, fieldMessagesOf } from "../../../server/errors";
import { newClient, newOwner, unique } from "../../../test/factories";
import { auditLog } from "../../audit/audit-log.table";
import { frameOrigins } from "../frame-origins.table";

async function auditOf(id: number) {
  return (await getDb())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "frame_origin"), eq(auditLog.subjectId, String(id))))
    .orderBy(auditLog.id);
}

/** The embedded page's `frame-ancestors`, as `src/proxy.ts` (what Next runs before the page) sets it. */
async function embeddedCsp(ownerSlug: string) {
  const response = await proxy(new NextRequest(`http://localhost:3000/enroll/embedded/${ownerSlug}/src/p-1`));
  return response.headers.get("content-security-policy");
}

const fieldsOf = (error: unknown) => {
  const known = appErrorOf(error);
  return known && fieldMessagesOf(known);
};

describe("console frame origins (spec Domain allowlist; decisions §4 frame-origin add, §10 Framing)", () => {
  afterEach(() => {
    process.env.APP_ENV = "staging";
    resetConfig();
  });

  it("adds and removes an origin, audited, and the embedded page's frame-ancestors follow at once", async () => {
    const owner = await newOwner(await newClient());
    const origin = `https://${unique("portal")}.example.com`;
    const am = await staff("account_manager");
    const added = await am.frameOrigins.add({ origin: `${origin.toUpperCase().replace("HTTPS", "https")}/` });
    expect(added).toEqual({ id: expect.any(Number), origin, created_at: expect.any(String) });
    expect((await am.frameOrigins.list()).map((row) => row.origin)).toContain(origin);
    expect(await embeddedCsp(owner.slug)).toContain(origin);

    expect(await am.frameOrigins.remove({ id: added.id })).toEqual({ removed: added });
    expect((await am.frameOrigins.list()).map((row) => row.origin)).not.toContain(origin);
    expect(await embeddedCsp(owner.slug)).not.toContain(origin);

    const rows = await auditOf(added.id);
    expect(rows.map((row) => [row.action, row.before, row.after])).toEqual([
      ["frame_origin.added", null, { origin }],
      ["frame_origin.removed", { origin }, null],
    ]);
  });

  it("validates as the CLI: HTTPS origins; staging also plain-HTTP localhost; duplicates and unknown ids refused", async () => {
    const am = await staff("account_manager");
    const local = await am.frameOrigins.add({ origin: `http://127.0.0.1:${40_000 + Math.floor(Math.random() * 20_000)}` });
    expect(local.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const origin of ["http://portal.example.com", "https://portal.example.com/path", "*.example.com", "portal.example.com", ""]) {
      const failure = await am.frameOrigins.add({ origin }).catch((e) => e);
      expect(failure, origin).toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
      expect(Object.keys(fieldsOf(failure) ?? {})).toEqual(["origin"]);
    }
    const duplicate = await am.frameOrigins.add({ origin: local.origin }).catch((e) => e);
    expect(duplicate).toMatchObject({ code: "CONFLICT", message: `${local.origin} is already a frame origin` });
    await expect(am.frameOrigins.remove({ id: 2_000_000_000 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await (await getDb()).select().from(frameOrigins).where(eq(frameOrigins.origin, local.origin))).length).toBe(1);

    process.env.APP_ENV = "production";
    resetConfig();
    await expect(am.frameOrigins.add({ origin: "http://localhost:3000" })).rejects.toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
  });

  it("is for signed-in staff only", async () => {
    const anonymous = await staff(null);
    await expect(anonymous.frameOrigins.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.frameOrigins.add({ origin: "https://anonymous.example.com" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.frameOrigins.remove({ id: 1 })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await (await getDb()).select().from(frameOrigins).where(eq(frameOrigins.origin, "https://anonymous.example.com"))).length).toBe(0);
  });
});
