import { closeDb, databaseUrl } from "../src/server/db/client";
import { migrateDatabase } from "../src/server/db/migrate";

try {
  await migrateDatabase(await databaseUrl());
  process.stdout.write(`${JSON.stringify({ migrated: true })}\n`);
} finally {
  await closeDb();
}
