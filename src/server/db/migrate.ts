import path from "node:path";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { runMigrations } from "graphile-worker";
import { quietWorkerLogger } from "../jobs/logger";
import { connectPostgres } from "./url";

const MIGRATION_LOCK = 7_420_001;

/**
 * Applies the committed drizzle-kit migrations and graphile-worker's schema. Serialized with an
 * advisory lock so several processes starting at once migrate exactly once.
 */
export async function migrateDatabase(url: string): Promise<void> {
  const sql = connectPostgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migrate(drizzle(sql), { migrationsFolder: path.resolve(process.cwd(), "drizzle") });
    await runMigrations({ connectionString: url, logger: quietWorkerLogger });
    await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
