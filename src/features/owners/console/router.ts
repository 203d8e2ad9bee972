import { z } from "zod";
import { errors } from "../../../server/errors";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../../auth/procedures";
import { listMerges, mergeOwners } from "../merge/merge";
import { listOwners } from "../merge/owner-list";
import { planMerge } from "../merge/plan";
import {
  addBuildingGrant,
  buildingGrantInput,
  buildingGrantResult,
  buildingGrantRow,
  buildingGrantSearchInput,
  removeBuildingGrant,
  searchBuildingGrants,
} from "./building-grants";
import { listOwnersForConsole, ownerDetail, ownerForConsole, ownerListInput, ownerRow } from "./detail";
import { ownerSettingsInput, updateOwnerSettings } from "./settings";
import { revealOwnerSecret, rotateOwnerSecretByStaff, signingSecretAnswer } from "./signing-secret";

const bySlug = z.object({ slug: z.string().max(200) });

/** The console's owners screens (decisions §12 Owners, Access: signing secret reveal and rotation). */
export const ownersConsoleRouter = router({
  list: staffProcedure("owners.read")
    .input(ownerListInput)
    .output(z.array(ownerRow))
    .query(({ ctx, input }) => listOwnersForConsole(ctx.db, input?.query)),
  detail: staffProcedure("owners.read")
    .input(bySlug)
    .output(ownerDetail)
    .query(({ ctx, input }) => ownerForConsole(ctx.db, input.slug)),
  updateSettings: staffProcedure("owners.manage")
    .input(ownerSettingsInput)
    .output(ownerDetail)
    .mutation(async ({ ctx, input }) => {
      await updateOwnerSettings(ctx.db, ctx.actor, input);
      return ownerForConsole(ctx.db, input.slug);
    }),
  revealSecret: staffProcedure("secrets.manage")
    .input(bySlug)
    .output(signingSecretAnswer)
    .mutation(({ ctx, input }) => revealOwnerSecret(ctx.db, ctx.actor, input.slug)),
  rotateSecret: staffProcedure("secrets.manage")
    .input(bySlug)
    .output(signingSecretAnswer)
    .mutation(({ ctx, input }) => rotateOwnerSecretByStaff(ctx.db, ctx.actor, input.slug)),
});

/** Building grants of managed owners (decisions §4 `owner grant-building`, §12 Access). */
export const buildingGrantsConsoleRouter = router({
  search: staffProcedure("access.read")
    .input(buildingGrantSearchInput)
    .output(z.array(buildingGrantRow))
    .query(({ ctx, input }) => searchBuildingGrants(ctx.db, input)),
  add: staffProcedure("access.manage")
    .input(buildingGrantInput)
    .output(buildingGrantResult)
    .mutation(({ ctx, input }) => addBuildingGrant(ctx.db, ctx.actor, input)),
  remove: staffProcedure("access.manage")
    .input(z.object({ id: z.number().int().positive() }))
    .output(buildingGrantResult)
    .mutation(({ ctx, input }) => removeBuildingGrant(ctx.db, ctx.actor, input.id)),
});

const pair = z.object({ from: z.string().trim().min(1).max(200), into: z.string().trim().min(1).max(200) });
const moves = z.object({
  buildings: z.number().int(),
  units: z.number().int(),
  bank_accounts: z.number().int(),
  prospects: z.number().int(),
  policies: z.number().int(),
  move_outs: z.number().int(),
  endpoints: z.number().int(),
  deliveries: z.number().int(),
  grants: z.number().int(),
  sources: z.number().int(),
});
const conflict = z.object({ kind: z.string(), detail: z.string(), resolution: z.string() });
const plan = z.object({ from: z.string(), into: z.string(), moves, conflicts: z.array(conflict) });
const mergeResult = z.object({ id: z.number().int(), from: z.string(), into: z.string(), moved: moves, merged_at: z.string() });
const mergeRecord = mergeResult.extend({ conflicts: z.array(conflict), actor: z.string(), secret_valid_until: z.string() });

/** The owner merge screen's procedures (decisions §12 Owners). */
export const ownerMergeConsoleRouter = router({
  /** Every owner, merged ones with `merged_into` (as `owner list`). */
  owners: staffProcedure("owners.read")
    .output(
      z.array(z.object({ owner_slug: z.string(), external_org_id: z.string(), name: z.string(), managed: z.boolean(), merged_into: z.string().optional() })),
    )
    .query(({ ctx }) => listOwners(ctx.db)),
  /** The dry run: what moves and every conflict with its resolution. Writes nothing. */
  preview: staffProcedure("owners.read")
    .input(pair)
    .output(plan)
    .query(({ ctx, input }) => planMerge(ctx.db, input.from, input.into)),
  /** The merge itself; `confirm` must repeat the duplicate's slug (the screen's typed confirmation). */
  merge: staffProcedure("owners.merge")
    .input(pair.extend({ confirm: z.string() }))
    .output(mergeResult)
    .mutation(({ ctx, input }) => {
      if (input.confirm.trim() !== input.from) throw errors.invalid(`Type the duplicate's slug (${input.from}) to confirm`, "confirm");
      return mergeOwners(ctx.db, ctx.actor, { from: input.from, into: input.into });
    }),
  /** The merge records, newest first. */
  history: staffProcedure("owners.read")
    .output(z.array(mergeRecord))
    .query(async ({ ctx }) =>
      (await listMerges(ctx.db)).map((row) => ({
        id: row.id,
        from: row.fromSlug,
        into: row.intoSlug,
        moved: row.moved,
        merged_at: row.mergedAt.toISOString(),
        conflicts: row.conflicts,
        actor: row.actor,
        secret_valid_until: row.secretValidUntil.toISOString(),
      })),
    ),
});
