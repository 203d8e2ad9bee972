import { onShutdown } from "../src/server/boot";
import { closeDb, databaseUrl } from "../src/server/db/client";
import { migrateDatabase } from "../src/server/db/migrate";
import { startWorker, stopWorker } from "../src/server/jobs/worker";

/** `npm run worker`: a separate worker process (WORKER=off on the web side); several may run. */
const url = await databaseUrl();
await migrateDatabase(url);
await startWorker(url, "process", Number(process.env.WORKER_CONCURRENCY ?? 10));
onShutdown(async () => {
  await stopWorker();
  await closeDb();
});
