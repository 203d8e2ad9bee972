import { recordAudit } from "../../src/features/audit/audit";
import { closeDb, getDb } from "../../src/server/db/client";

/**
 * Writes one audit row on the e2e server's database with the real `recordAudit`, as the operator
 * CLI does (actor `cli:<name>`), for the audit screen's spec. Argument: the record as JSON.
 */
const record = JSON.parse(process.argv[2] ?? "{}");
const db = await getDb();
await db.transaction((tx) => recordAudit(tx, { cli: "e2e" }, record));
await closeDb();
process.stdout.write("{}\n");
