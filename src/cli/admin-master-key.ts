import { SEALED_COLUMNS } from "../composition/sealed-columns";
import { recordAudit } from "../features/audit/audit";
import { getDb } from "../server/db/client";
import { resealColumns } from "../server/reseal";
import { cliActor } from "./usage";

/** `master-key …` commands of the operator CLI (docs/operations.md, Rotating MASTER_KEY); admin.ts lists them beside its own. */
type Flags = Record<string, string | boolean | string[] | undefined>;

export const MASTER_KEY_COMMANDS: Record<string, { usage: string; run: (flags: Flags) => Promise<unknown> }> = {
  "master-key rotate": {
    usage: "[--dry-run] (MASTER_KEY is the new key, MASTER_KEY_PREVIOUS the old one; prints counts, never values)",
    run: async (flags) => {
      const dryRun = flags["dry-run"] === true;
      const db = await getDb();
      const report = await resealColumns(db, SEALED_COLUMNS, { dryRun });
      if (dryRun) return { dry_run: true, pending: report.resealed, unreadable: report.unreadable };
      // The CLI's trail (decisions §15): counts only, as printed, never a value.
      await recordAudit(db, cliActor(), { action: "master_key.rotate", subject: { type: "deployment", id: "master_key" }, after: report });
      return report;
    },
  },
};
