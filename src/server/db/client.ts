import { randomBytes } from "node:crypto";
import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { getConfig } from "../config";
import { logger } from "../log";
import { inTransactionSpan, statementSpan, tracingOn } from "../observability/tracing";
import { connectOrStartEmbedded, type EmbeddedHandle } from "./embedded";
import { connectPostgres } from "./url";

/** No relational-query schema: tables are imported where they are used (the full list is the composition root's). */
export type Db = PostgresJsDatabase;
/** A transaction or the database: domain functions take this first so they compose in one transaction. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

type Connection = { url: string; sql: postgres.Sql; db: Db; embedded?: EmbeddedHandle };

// One pool per process, shared by the door's modules and Next.js's separately bundled pages.
const slot = globalThis as unknown as { [key: symbol]: { connecting?: Promise<Connection> } };
const KEY = Symbol.for("pis.db");
slot[KEY] ??= {};
const shared = slot[KEY];

/**
 * The database URL: DATABASE_URL, else the embedded instance of DATA_DIR (started if none runs),
 * through its Unix socket when it has one (a libpq-style `?host=/dir` URL: node-postgres takes it
 * as is, postgres.js through `connectPostgres`).
 */
export async function databaseUrl(): Promise<string> {
  return (await connection()).url;
}

export async function getDb(): Promise<Db> {
  return (await connection()).db;
}

export async function getSql(): Promise<postgres.Sql> {
  return (await connection()).sql;
}

function connection(): Promise<Connection> {
  shared.connecting ??= open().catch((error) => {
    shared.connecting = undefined;
    throw error;
  });
  return shared.connecting;
}

async function open(): Promise<Connection> {
  const config = getConfig();
  let embedded: EmbeddedHandle | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await connectOrStartEmbedded(config.dataDir);
    url = embedded.socketUrl ?? embedded.url;
  }
  const sql = connectPostgres(url, {
    max: getConfig().dbPoolSize,
    onnotice: () => {},
    connection: { application_name: APPLICATION_NAME },
    // DB_PREPARE=0: nothing prepared at all, not even postgres.js's own statements (its `commit`,
    // its type lookup) or queries without per-call options (docs/operations.md, "PgBouncer").
    ...(getConfig().dbPrepare ? {} : { prepare: false }),
    connect_timeout: CONNECT_TIMEOUT_SECONDS,
    backoff: reconnectDelaySeconds,
  });
  return { url, sql, db: drizzle(instrumented(sql)), embedded };
}

/**
 * This process's connections name it, so `pis_db_pool_connections` counts them in
 * `pg_stat_activity` (postgres.js has no pool statistics: docs/decisions.md "Hardening: metrics").
 */
const APPLICATION_NAME = `pis ${randomBytes(4).toString("hex")}`;

/**
 * While the database is out of reach (docs/decisions.md "Faults, proven"), a statement fails within
 * seconds (the request answers 503) instead of waiting: a connection that does not open within
 * CONNECT_TIMEOUT_SECONDS fails (postgres.js waits 30 s), and a new one is tried at most 1 s after
 * a failed one. postgres.js's own delay grows with every failure to 20 s, so queries queued behind
 * it waited that long during an outage and for as long after the database came back.
 */
const CONNECT_TIMEOUT_SECONDS = 5;
const reconnectDelaySeconds = (failures: number) => Math.min(0.05 * 2 ** failures, 1);

/** Statements with more parameters than this (batch writes of many rows) are not kept prepared. */
const MAX_PREPARED_PARAMETERS = 100;

/**
 * Drizzle asks postgres.js not to prepare its statements (for transaction-mode connection poolers),
 * and postgres.js then spends an extra round trip on every query with parameters to learn their
 * types: a prospect upsert measured 16 socket writes instead of 8. This service connects to
 * PostgreSQL directly, so statements are prepared, postgres.js's own default (cached per connection,
 * which postgres.js recycles every 30-60 minutes); batch writes with many parameters are left
 * unprepared so their varying shapes do not fill the cache. Behind a transaction-mode pooler, set
 * DB_PREPARE=0.
 *
 * With traces on (decided when the database opens: docs/decisions.md, Traces), every transaction
 * and every statement drizzle runs is a span (postgres.js has no instrumentation of its own).
 */
function instrumented<T extends object>(client: T): T {
  const prepare = getConfig().dbPrepare;
  const traced = tracingOn();
  if (!prepare && !traced) return client;
  return new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      if (property === "unsafe") {
        return (query: string, parameters?: unknown[], options?: Record<string, unknown>) => {
          const pending = value.call(
            target,
            query,
            parameters,
            prepare ? { ...options, prepare: (parameters?.length ?? 0) <= MAX_PREPARED_PARAMETERS } : options,
          );
          return traced ? settled(pending, statementSpan(query)) : pending;
        };
      }
      // Transactions and savepoints hand drizzle a new client: it prepares (and traces) its statements too.
      if (property === "begin" || property === "savepoint") {
        return (...args: unknown[]) => {
          const last = args.length - 1;
          const body = args[last] as (inner: object) => unknown;
          args[last] = (inner: object) => body(instrumented(inner));
          return traced && property === "begin" ? inTransactionSpan(() => value.apply(target, args)) : value.apply(target, args);
        };
      }
      return value.bind(target);
    },
  });
}

/**
 * Ends a statement's span when postgres.js's pending query settles. The query runs when it is
 * awaited (its `then`), after drizzle has chosen its result form (`.values()`): `then` is wrapped,
 * not called here.
 */
function settled<Q extends PromiseLike<unknown>>(pending: Q, span: { settle: (error?: unknown) => void }): Q {
  const then = pending.then;
  // biome-ignore lint/suspicious/noThenProperty: the pending query is already a thenable; its own `then` is wrapped.
  pending.then = function (this: Q, onFulfilled, onRejected) {
    return then.call(
      this,
      (value) => {
        span.settle();
        return onFulfilled ? onFulfilled(value) : value;
      },
      (error) => {
        span.settle(error);
        if (onRejected) return onRejected(error);
        throw error;
      },
    );
  } as Q["then"];
  return pending;
}

/**
 * Waits until the database answers (docs/decisions.md "Operations: recovery from faults"): a worker
 * or web process started while PostgreSQL is down or restarting waits for it, saying so, instead of
 * exiting. Tries again after 0.5 s, 1 s, 2 s, then every WAIT_RETRY_CAP_MS.
 */
export async function waitForDatabase(): Promise<void> {
  for (let failures = 0; ; failures++) {
    try {
      const sql = await getSql();
      await sql`select 1`;
      if (failures > 0) logger().info({ failures }, "database reachable");
      return;
    } catch (error) {
      const delayMs = Math.min(500 * 2 ** failures, WAIT_RETRY_CAP_MS);
      logger().warn({ err: error, nextInMs: delayMs }, "database unreachable: waiting for it");
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
const WAIT_RETRY_CAP_MS = 3_000;

/** Closes the pool and, when this process started the embedded server, stops it. */
export async function closeDb(): Promise<void> {
  if (!shared.connecting) return;
  const current = await shared.connecting.catch(() => undefined);
  shared.connecting = undefined;
  if (!current) return;
  await current.sql.end({ timeout: 5 });
  await current.embedded?.stop();
}
