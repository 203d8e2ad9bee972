import { runOnce } from "graphile-worker";
import { FEATURE_TASKS } from "../composition/tasks";
import { databaseUrl } from "../server/db/client";
import { quietWorkerLogger } from "../server/jobs/logger";
import { workerTaskList } from "../server/jobs/worker";

/** Runs every job that is due in this test file's database, with the real task list, then returns. */
export async function runDueJobs(): Promise<void> {
  await runOnce({ connectionString: await databaseUrl(), taskList: workerTaskList(FEATURE_TASKS), logger: quietWorkerLogger, noHandleSignals: true });
}
