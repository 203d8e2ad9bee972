import { startService } from "./lib/service";
import { ownersBench } from "./owners.bench";

/** `npm run bench`: starts the built service once and runs every benchmark against it. */
const service = await startService(Number(process.env.BENCH_PORT ?? 3310), "bench");
try {
  await ownersBench(service);
} finally {
  await service.stop();
}
