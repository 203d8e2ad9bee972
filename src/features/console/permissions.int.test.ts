import { describe, expect, it } from "vitest";
import { z } from "zod";
import { consoleRouter } from "@/composition/router";
import { getDb } from "@/server/db/client";
import { logger } from "@/server/log";
import type { ConsoleUser } from "@/server/trpc/context";
import { router } from "@/server/trpc/init";
import { recordAudit } from "../audit/audit";
import { staffProcedure } from "../auth/procedures";
import { can, PERMISSIONS, permissionsOf } from "./permissions";

const operator: ConsoleUser = { id: 1, email: "ops@example.com", role: "operator" };
const manager: ConsoleUser = { id: 2, email: "am@example.com", role: "account_manager" };

async function context(user: ConsoleUser | null) {
  return { db: await getDb(), log: logger(), requestId: "req-test", user };
}

/** A throwaway router on the real builder: an operator-only mutation that audits in its transaction. */
const probe = router({
  merge: staffProcedure("owners.merge")
    .input(z.object({ id: z.string() }))
    .mutation(({ ctx, input }) =>
      ctx.db.transaction(async (tx) => {
        await recordAudit(tx, ctx.actor, { action: "owners.merge", subject: { type: "owner", id: input.id }, before: { slug: "a" }, after: { slug: "b" } });
        return { done: true };
      }),
    ),
  read: staffProcedure("deliveries.read").query(() => "ok"),
});

describe("console permissions (decisions §12: one builder, one map)", () => {
  it("operators may do everything; account managers manage access and read, but never retry, merge or correct", () => {
    for (const permission of Object.keys(PERMISSIONS) as (keyof typeof PERMISSIONS)[]) expect(can("operator", permission)).toBe(true);
    for (const denied of [
      "deliveries.retry",
      "deliveries.bulk_retry",
      "owners.merge",
      "buildings.correct_address",
      "buildings.activate",
      "users.manage",
    ] as const) {
      expect(can("account_manager", denied)).toBe(false);
    }
    for (const allowed of ["owners.manage", "access.manage", "secrets.manage", "deliveries.read", "audit.read"] as const)
      expect(can("account_manager", allowed)).toBe(true);
    expect(permissionsOf("account_manager")).not.toContain("owners.merge");
  });

  it("every console procedure is built by staffProcedure and names its permission", () => {
    const procedures = Object.entries(consoleRouter._def.procedures as unknown as Record<string, { _def: { meta?: { permission?: string } } }>);
    expect(procedures.length).toBeGreaterThan(3);
    for (const [path, procedure] of procedures) expect([path, (procedure._def.meta?.permission ?? "") in PERMISSIONS]).toEqual([path, true]);
  });

  it("refuses anonymous callers and roles without the permission, and audits who did what", async () => {
    await expect(probe.createCaller(await context(null)).read()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(probe.createCaller(await context(manager)).merge({ id: "dup" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await probe.createCaller(await context(manager)).read()).toBe("ok");
    expect(await probe.createCaller(await context(operator)).merge({ id: "dup-1" })).toEqual({ done: true });

    const log = await consoleRouter.createCaller(await context(manager)).audit.search({ subjectType: "owner", subjectId: "dup-1" });
    expect(log).toEqual([
      expect.objectContaining({
        actor: "ops@example.com",
        actor_role: "operator",
        action: "owners.merge",
        subject_id: "dup-1",
        before: { slug: "a" },
        after: { slug: "b" },
      }),
    ]);
    // The refused attempt wrote nothing.
    expect(await consoleRouter.createCaller(await context(operator)).audit.search({ subjectId: "dup" })).toEqual([]);
    await expect(consoleRouter.createCaller(await context(null)).audit.search({})).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("tells the console what the signed-in role may do", async () => {
    const me = await consoleRouter.createCaller(await context(manager)).me();
    expect(me).toMatchObject({ email: "am@example.com", role: "account_manager" });
    expect(me.permissions).toContain("access.manage");
    expect(me.permissions).not.toContain("deliveries.retry");
  });
});
