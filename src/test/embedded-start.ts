import fs from "node:fs";
import path from "node:path";
import { connectOrStartEmbedded } from "../server/db/embedded";

/**
 * A process that starts (or joins) the embedded PostgreSQL of the data directory given as its
 * argument, prints `{"ready":…}` and serves until SIGTERM: the piece of `npm start` the crash tests
 * kill and restart (embedded.int.test.ts). With `LOCK_NAMES_OWN_PID=1` it first leaves the start
 * lock naming its own pid, as a crashed predecessor with the same pid does after a container restart.
 */
const dataDir = process.argv[2] as string;
if (process.env.LOCK_NAMES_OWN_PID === "1") fs.writeFileSync(path.join(dataDir, "postgres.lock"), String(process.pid));
const began = Date.now();
const handle = await connectOrStartEmbedded(dataDir);
process.stdout.write(`${JSON.stringify({ ready: true, owned: handle.owned, ms: Date.now() - began })}\n`);
process.once("SIGTERM", () => {
  handle.stop().finally(() => process.exit(0));
});
setInterval(() => {}, 60_000);
