import path from "node:path";

/** bench/drain.ts: applies the migrations of the checkout given (run from its directory) to DATABASE_URL. */
const checkout = process.argv[2] as string;
const { migrateDatabase } = (await import(path.join(checkout, "src/server/db/migrate.ts"))) as { migrateDatabase: (url: string) => Promise<void> };
await migrateDatabase(process.env.DATABASE_URL as string);
process.exit(0);
