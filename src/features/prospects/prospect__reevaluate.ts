import { z } from "zod";
import type { Tx } from "../../server/db/client";
import { addJobs, declareTask } from "../../server/jobs/define-task";

export const ReevaluationPayload = z.object({
  ownerId: z.number().int(),
  buildingId: z.number().int().optional(),
  /** A later chunk: the prospects after this id. */
  afterId: z.number().int().optional(),
});

/**
 * The re-evaluation task (CONTRIBUTING.md, Jobs). Its handler is in `prospect__reevaluate.handler.ts`:
 * the roster and owners call `requestProspectReevaluation`, and the handler imports what imports the
 * roster, so defining it here would close an import cycle.
 */
export const reevaluateTask = declareTask({ name: "prospect__reevaluate", payload: ReevaluationPayload });

/** Above this many buildings in one change, one owner-wide job replaces the per-building jobs. */
const MAX_BUILDING_JOBS = 50;

export type ReevaluationScope = Omit<z.infer<typeof ReevaluationPayload>, "afterId">;

export const reevaluationJobKey = ({ ownerId, buildingId }: ReevaluationScope) =>
  buildingId === undefined ? `prospect-reevaluate:${ownerId}` : `prospect-reevaluate:${ownerId}:${buildingId}`;

/**
 * spec Property transitions, Provisioning order step 5: decisions follow the roster. Called inside
 * the transaction of an owner or roster change, it adds the background re-evaluation of the
 * owner's decided prospects (all of them, or those on `buildingIds`): one job per owner or
 * building, all added in one statement. Job keys coalesce a burst: a change while the same
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
  await addJobs(
    tx,
    reevaluateTask,
    scopes.map((scope) => ({ payload: scope, jobKey: reevaluationJobKey(scope) })),
    { preserveRunAt: true },
  );
}
