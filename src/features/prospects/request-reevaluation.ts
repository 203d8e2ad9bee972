import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../server/db/client";

/**
 * The re-evaluation task's name and payload, defined by `prospect__reevaluate.ts`. They live here
 * because the roster and owners call `requestProspectReevaluation`, and the task's handler imports
 * what imports the roster: importing the definition from here would close an import cycle.
 */
export const REEVALUATE_TASK = "prospect__reevaluate";
export const ReevaluationPayload = z.object({
  ownerId: z.number().int(),
  buildingId: z.number().int().optional(),
  /** A later chunk: the prospects after this id. */
  afterId: z.number().int().optional(),
});

/** Above this many buildings in one change, one owner-wide job replaces the per-building jobs. */
const MAX_BUILDING_JOBS = 50;

export type ReevaluationScope = Omit<z.infer<typeof ReevaluationPayload>, "afterId">;

export const reevaluationJobKey = ({ ownerId, buildingId }: ReevaluationScope) =>
  buildingId === undefined ? `prospect-reevaluate:${ownerId}` : `prospect-reevaluate:${ownerId}:${buildingId}`;

/**
 * spec Property transitions, Provisioning order step 5: decisions follow the roster. Called inside
 * the transaction of an owner or roster change, it adds the background re-evaluation of the
 * owner's decided prospects (all of them, or those on `buildingIds`): one job per owner or
 * building, all added in one `add_jobs` statement (the typed `addJob` adds one). Job keys coalesce a burst: a change while the same
 * scope's job still waits adds nothing more (that job reads the roster when it runs); a change
 * while it runs adds a new one.
 */
export async function requestProspectReevaluation(tx: Tx, request: { ownerId: number; buildingIds?: number[] }): Promise<void> {
  const buildingIds = request.buildingIds && [...new Set(request.buildingIds)];
  if (buildingIds?.length === 0) return;
  const scopes: ReevaluationScope[] =
    buildingIds && buildingIds.length <= MAX_BUILDING_JOBS
      ? buildingIds.map((buildingId) => ({ ownerId: request.ownerId, buildingId }))
      : [{ ownerId: request.ownerId }];
  const specs = scopes.map((scope) => ({ payload: ReevaluationPayload.parse(scope), key: reevaluationJobKey(scope) }));
  await tx.execute(sql`select graphile_worker.add_jobs(array(
      select row(${REEVALUATE_TASK}, s.payload, null, null, null, s.key, null, null)::graphile_worker.job_spec
      from json_to_recordset(${JSON.stringify(specs)}::json) as s(payload json, key text)
    ), job_key_preserve_run_at => true)`);
}
