import { runOnce } from "graphile-worker";
import { databaseUrl } from "../server/db/client";
import { quietWorkerLogger } from "../server/jobs/logger";
import { taskList } from "../server/jobs/tasks";

/** Runs every job that is due in this test file's database, with the real task list, then returns. */
export async function runDueJobs(): Promise<void> {
  await runOnce({ connectionString: await databaseUrl(), taskList, logger: quietWorkerLogger, noHandleSignals: true });
}
