import type { Config } from "../server/config";
import { databaseUrl, getDb } from "../server/db/client";
import { migrateDatabase } from "../server/db/migrate";
import { rootSecrets } from "../server/secrets";
import { type DemoCredentials, seedDemo } from "./demo-seed";

/**
 * `npm start`'s steps between the build and the web process (scripts/start.ts), callable on their
 * own so the production rules are tested without building Next.js. The root secrets are read first,
 * so a key problem stops the start here rather than at a first request; the database is started
 * (embedded unless DATABASE_URL is set) and migrated; the demo is seeded only when the
 * configuration says so, which production never does (decisions §14).
 */
export async function prepareStart(config: Config): Promise<{ url: string; demo?: DemoCredentials }> {
  rootSecrets();
  const url = await databaseUrl();
  await migrateDatabase(url);
  const demo = config.seedDemo ? await seedDemo(await getDb(), config.dataDir) : undefined;
  return { url, demo };
}
