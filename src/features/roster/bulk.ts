import { getTableColumns, getTableName, type SQL, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Tx } from "../../server/db/client";

/** Texts as ONE jsonb parameter, for `column = any(…)`: a parameter each cost more to build than to run. */
export function textArray(values: readonly string[]): SQL {
  return sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))`;
}

/**
 * A batch's rows written with ONE jsonb parameter (`jsonb_to_recordset`), not a parameter per
 * value: building a 500-row, 20-column statement value by value cost more time in the web process
 * than PostgreSQL took to run it (docs/decisions.md, Roster batch speed).
 *
 * Every row carries the same keys (the table's TypeScript column names); a column left out takes
 * its default. Values are stored as JSON gives them: jsonb columns as the object, timestamps as
 * ISO text.
 */
export async function insertRows<T extends PgTable>(
  tx: Tx,
  table: T,
  rows: Array<Partial<T["$inferInsert"]>>,
  options: { onConflictUpdate?: { target: PgColumn; set: Array<keyof T["$inferInsert"] & string> }; returning?: SQL } = {},
): Promise<Array<Record<string, unknown>>> {
  if (!rows.length) return [];
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const keys = Object.keys(rows[0]).filter((key) => key in columns);
  const name = (key: string) => sql.identifier(columns[key].name);
  // The record's fields are the rows' own keys, so the rows are serialized as they are.
  const record = sql.join(
    keys.map((key) => sql`${sql.identifier(key)} ${sql.raw(recordTypeOf(columns[key]))}`),
    sql`, `,
  );
  const json = JSON.stringify(rows);
  const conflict = options.onConflictUpdate
    ? sql` on conflict (${sql.identifier(options.onConflictUpdate.target.name)}) do update set ${sql.join(
        options.onConflictUpdate.set.map((key) => sql`${name(key)} = excluded.${name(key)}`),
        sql`, `,
      )}`
    : sql``;
  const returning = options.returning ? sql` returning ${options.returning}` : sql``;
  return tx.execute<Record<string, unknown>>(
    sql`insert into ${sql.identifier(getTableName(table))} (${sql.join(keys.map(name), sql`, `)}) select ${sql.join(
      keys.map((key) => sql.identifier(key)),
      sql`, `,
    )} from jsonb_to_recordset(${json}::jsonb) as r(${record})${conflict}${returning}`,
  );
}

/** A column's type in the record definition: a serial column's values are integers. */
function recordTypeOf(column: PgColumn): string {
  const type = column.getSQLType();
  return type === "serial" ? "integer" : type === "bigserial" ? "bigint" : type;
}
