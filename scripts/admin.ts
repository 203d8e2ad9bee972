import { runAdmin } from "../src/cli/admin";

process.exitCode = await runAdmin(process.argv.slice(2));
