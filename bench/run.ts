import path from "node:path";
import { startService } from "./lib/service";
import { ownersBench } from "./owners.bench";
import { rosterBench } from "./roster.bench";

/** `npm run bench`: starts the built service once and runs every benchmark against it. */
const service = await startService(Number(process.env.BENCH_PORT ?? 3310), "bench");
try {
  await ownersBench(service);
  await rosterBench(service, path.join(".data", "bench"));
} finally {
  await service.stop();
}
