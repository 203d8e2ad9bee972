import { SEALED_COLUMNS } from "../composition/sealed-columns";
import { getDb } from "../server/db/client";
import { resealColumns } from "../server/reseal";

/** `master-key …` commands of the operator CLI (docs/operations.md, Rotating MASTER_KEY); admin.ts lists them beside its own. */
type Flags = Record<string, string | boolean | string[] | undefined>;

export const MASTER_KEY_COMMANDS: Record<string, { usage: string; run: (flags: Flags) => Promise<unknown> }> = {
  "master-key rotate": {
    usage: "[--dry-run] (MASTER_KEY is the new key, MASTER_KEY_PREVIOUS the old one; prints counts, never values)",
    run: async (flags) => {
      const dryRun = flags["dry-run"] === true;
      const report = await resealColumns(await getDb(), SEALED_COLUMNS, { dryRun });
      return dryRun ? { dry_run: true, pending: report.resealed, unreadable: report.unreadable } : report;
    },
  },
};
