import { runAdmin } from "../src/cli/admin";
import { refuseUnsafeStart } from "../src/server/start-check";

refuseUnsafeStart();
process.exitCode = await runAdmin(process.argv.slice(2));
