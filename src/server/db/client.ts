import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { getConfig } from "../config";
import { connectOrStartEmbedded, type EmbeddedHandle } from "./embedded";
import * as schema from "./schema";

export type Db = PostgresJsDatabase<typeof schema>;
/** A transaction or the database: domain functions take this first so they compose in one transaction. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

type Connection = { url: string; sql: postgres.Sql; db: Db; embedded?: EmbeddedHandle };

// One pool per process, shared by Next.js's separately bundled instrumentation and route handlers.
const slot = globalThis as unknown as { [key: symbol]: { connecting?: Promise<Connection> } };
const KEY = Symbol.for("pis.db");
slot[KEY] ??= {};
const shared = slot[KEY];

/** The database URL: DATABASE_URL, else the embedded instance of DATA_DIR (started if none runs). */
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
    url = embedded.url;
  }
  const sql = postgres(url, {
    max: Number(process.env.DB_POOL_SIZE ?? 10),
    onnotice: () => {},
    connection: { application_name: "pis" },
  });
  return { url, sql, db: drizzle(sql, { schema }), embedded };
}

/** Closes the pool and, when this process started the embedded server, stops it. */
export async function closeDb(): Promise<void> {
  if (!shared.connecting) return;
  const current = await shared.connecting.catch(() => undefined);
  shared.connecting = undefined;
  if (!current) return;
  await current.sql.end({ timeout: 5 });
  await current.embedded?.stop();
}
