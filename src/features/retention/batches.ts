import { getTableName, type SQL, sql } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Db } from "../../server/db/client";

/**
 * How the prune deletes (docs/decisions.md, Hardening: retention): by primary key, a batch at a time, each batch
 * its own short transaction over rows chosen with `FOR UPDATE SKIP LOCKED`, so no statement holds
 * many locks for long, a row another transaction is changing is left for the next run, and two runs
 * at once (two workers, the cron beside the CLI) delete disjoint rows.
 */
export type BatchOptions = {
  /** Rows per batch. */
  batchSize: number;
  /** A pause between batches, leaving the database to partner traffic. */
  pauseMs: number;
  /** Told after each batch: its table, rows deleted and how long its transaction took (the benchmark). */
  onBatch?: (batch: { table: string; rows: number; ms: number }) => void;
};

export const DEFAULT_BATCH_OPTIONS: BatchOptions = { batchSize: 2_000, pauseMs: 0 };

/** `now() - <days> days`: the moment before which a finished record is old enough to go. */
export const cutoff = (days: number): SQL => sql`now() - make_interval(days => ${days}::int)`;

export const pause = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/** A Postgres array literal of ids, sent as one parameter. */
export const idArray = (ids: readonly (string | number)[]) => `{${ids.map((id) => JSON.stringify(String(id))).join(",")}}`;

/**
 * The rows of one kind old enough to go: `select id, <cursor> as cursor from … where …`, the cursor
 * an indexed column the walk follows (`after`: the largest cursor of the batch before, as text,
 * undefined at first). Each batch starts where the one before ended, so the walk reads the table's
 * index once instead of stepping again over the rows it just deleted (dead until vacuumed) or the
 * rows it keeps.
 */
export type Candidates = (after: string | undefined) => SQL;

/** A kind of record the prune deletes: its table and the candidate query over an index (what goes, never what stays). */
export type Kind = { table: PgTable; candidates: Candidates };

/** `and <column> >= <after>`: a timestamp cursor (ties at the boundary are looked at again, the deleted ones being gone). */
export const since = (column: SQL, after: string | undefined) => (after === undefined ? sql`` : sql`and ${column} >= ${after}::timestamptz`);

/** Deletes, batch after batch, the rows `candidates` selects, until a batch finds fewer than a full batch. Answers how many went. */
export async function deleteInBatches(db: Db, table: PgTable, candidates: Candidates, options: BatchOptions): Promise<number> {
  let total = 0;
  let after: string | undefined;
  for (;;) {
    const started = performance.now();
    const [row] = (await db.execute(sql`
      with batch as (${candidates(after)} order by cursor limit ${options.batchSize} for update skip locked),
      gone as (delete from ${table} t using batch where t.id = batch.id returning t.id)
      select (select count(*)::int from gone) as n, (select max(cursor)::text from batch) as last`)) as unknown as Array<{ n: number; last: string | null }>;
    total += row.n;
    options.onBatch?.({ table: getTableName(table), rows: row.n, ms: performance.now() - started });
    if (row.n < options.batchSize || row.last === null) return total;
    after = row.last;
    await pause(options.pauseMs);
  }
}

/** One `count(*)` of what a dry run would delete. */
export async function countOf(db: Db, query: SQL): Promise<number> {
  const [row] = (await db.execute(sql`select count(*)::int as n from (${query}) q`)) as unknown as Array<{ n: number }>;
  return row.n;
}
