import { FEATURE_TASKS } from "../src/composition/tasks";
import { onShutdown } from "../src/server/boot";
import { getConfig } from "../src/server/config";
import { closeDb, databaseUrl } from "../src/server/db/client";
import { migrateDatabase } from "../src/server/db/migrate";
import { startWorker, stopWorker } from "../src/server/jobs/worker";
import { startTracing, stopTracing } from "../src/server/observability/tracing";
import { rootSecrets } from "../src/server/secrets";
import { refuseUnsafeStart } from "../src/server/start-check";

/** `npm run worker`: a separate worker process (WORKER=off on the web side); several may run. */
refuseUnsafeStart();
rootSecrets();
await startTracing(); // before the database opens: its client is traced when it opens
const url = await databaseUrl();
await migrateDatabase(url);
await startWorker(url, "process", { tasks: FEATURE_TASKS, concurrency: getConfig().workerConcurrency });
onShutdown(async () => {
  await stopWorker();
  await closeDb();
  await stopTracing();
});
