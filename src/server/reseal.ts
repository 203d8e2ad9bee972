import { getTableName, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db } from "./db/client";
import { currentSealPrefix, decryptSecret, encryptSecret } from "./secrets";

/** A column of sealed values and its table's primary key. */
export type SealedColumn = { table: PgTable; id: PgColumn; sealed: PgColumn };

export type ResealReport = {
  /** Values re-sealed under MASTER_KEY, by `table.column` (the values it would re-seal, on a dry run). */
  resealed: Record<string, number>;
  /** Values neither MASTER_KEY nor MASTER_KEY_PREVIOUS opens: lost unless their key is given again. */
  unreadable: Record<string, number>;
};

const BATCH = 500;

/**
 * The master key rotation (docs/decisions.md, Hardening: production start): every value not yet
 * sealed under the current key is opened (with MASTER_KEY_PREVIOUS) and sealed again under
 * MASTER_KEY, in batches walked by primary key, each batch in its own short transaction. A value
 * changed meanwhile is left alone (the writer sealed it under the current key). Running it again
 * finds nothing to do. Reports counts only, never a value.
 */
export async function resealColumns(db: Db, columns: readonly SealedColumn[], options: { dryRun?: boolean } = {}): Promise<ResealReport> {
  const prefix = currentSealPrefix();
  const report: ResealReport = { resealed: {}, unreadable: {} };
  for (const column of columns) {
    const name = `${getTableName(column.table)}.${column.sealed.name}`;
    let resealed = 0;
    let unreadable = 0;
    let after: unknown;
    for (;;) {
      const rows = (await db.execute(sql`
        select ${column.id} as id, ${column.sealed} as sealed from ${column.table}
        where ${column.sealed} is not null and left(${column.sealed}, ${prefix.length}) <> ${prefix}
          ${after === undefined ? sql`` : sql`and ${column.id} > ${after}`}
        order by ${column.id} limit ${BATCH}`)) as unknown as Array<{ id: unknown; sealed: string }>;
      if (rows.length === 0) break;
      after = rows[rows.length - 1]?.id;
      const changes: Array<{ id: unknown; from: string; to: string }> = [];
      for (const row of rows) {
        try {
          changes.push({ id: row.id, from: row.sealed, to: encryptSecret(decryptSecret(row.sealed)) });
        } catch {
          unreadable += 1;
        }
      }
      if (options.dryRun) {
        resealed += changes.length;
        continue;
      }
      await db.transaction(async (tx) => {
        for (const change of changes) {
          const updated = await tx.execute(
            sql`update ${column.table} set ${sql.identifier(column.sealed.name)} = ${change.to}
                where ${column.id} = ${change.id} and ${column.sealed} = ${change.from}`,
          );
          resealed += (updated as unknown as { count: number }).count;
        }
      });
    }
    report.resealed[name] = resealed;
    if (unreadable > 0) report.unreadable[name] = unreadable;
  }
  return report;
}
