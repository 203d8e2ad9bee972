import { postgresRestartScenario } from "./postgres-restart";
import { soakScenario } from "./soak";
import { workerKillScenario } from "./worker-kill";

/** `npm run bench -- faults-postgres | faults-worker-kill | faults-soak [--minutes N]` (docs/operations.md "Fault scenarios"). */
export async function faultScenario(name: string, args: string[]): Promise<void> {
  if (name === "faults-postgres") return postgresRestartScenario();
  if (name === "faults-worker-kill") return workerKillScenario();
  if (name === "faults-soak") {
    const flag = args.indexOf("--minutes");
    const minutes = flag >= 0 ? Number(args[flag + 1]) : 30;
    if (!(minutes > 0)) throw new Error("--minutes takes a positive number");
    return soakScenario(minutes);
  }
  throw new Error(`Unknown fault scenario ${name}: faults-postgres, faults-worker-kill or faults-soak`);
}
