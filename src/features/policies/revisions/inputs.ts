import { z } from "zod";
import { REVISION_MESSAGES as M } from "./messages";

/*
 * The inputs of a revision and a cancellation, in a module without server imports: the console's
 * policy forms check the very same schemas in the browser (CONTRIBUTING.md, "A console form").
 */

/**
 * What staff may change (decisions §11 Revisions; §4 `policy revise`). Shapes only: the rules (and
 * their field messages) are in `rules.ts`, so a wrong amount or date reads the same from the
 * console and the CLI. The unit by id (console: a select of the building's units) or by its
 * external id (CLI).
 */
export const revisionInput = z.object({
  coverage_amount_cents: z.number().optional(),
  coverage_start_date: z.string().trim().max(40).optional(),
  coverage_end_date: z.string().trim().max(40).optional(),
  unit_id: z.number().int().positive().max(2_147_483_647).optional(),
  unit_external_id: z.string().trim().min(1).max(200).optional(),
  /** Internal: kept on the revision row and in the status history, shown in the console only. */
  note: z.string().trim().max(500, M.noteTooLong).optional(),
});

export const cancellationInput = z.object({
  /** Internal (status history, audit, console); spec: `policy.canceled` carries no reason. */
  reason: z.string().trim().max(500, M.reasonTooLong).optional(),
});
