import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { needsBuild } from "../src/cli/build-state";
import { startBanner } from "../src/cli/start-banner";
import { prepareStart } from "../src/cli/start-sequence";
import { getConfig } from "../src/server/config";
import { closeDb } from "../src/server/db/client";
import { refuseUnsafeStart } from "../src/server/start-check";

/**
 * `npm start`: refuses an unsafe configuration (decisions §14), builds when sources changed, starts
 * the database (embedded unless DATABASE_URL is set), migrates, seeds the demo (staging), serves on
 * PORT and prints how to use it. Ctrl-C stops everything.
 */
refuseUnsafeStart();
const config = getConfig();
const nextBin = path.join("node_modules", "next", "dist", "bin", "next");

if (!config.skipBuild && needsBuild()) {
  process.stdout.write("Building the web app (first start or sources changed)…\n");
  const build = spawnSync(process.execPath, [nextBin, "build"], { stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const { url, demo } = await prepareStart(config);

// The web process (and its inline worker) use the database this process started.
// The web process: the built app behind the front server (scripts/serve.ts), on PORT.
const server = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts"], {
  stdio: ["ignore", "inherit", "inherit"],
  env: { ...process.env, DATABASE_URL: url, NEXT_TELEMETRY_DISABLED: "1", NEXTAUTH_URL: `${config.publicBaseUrl}/console/api/auth` },
});

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    server.kill(signal);
  });
}
server.on("exit", async (code) => {
  await closeDb();
  process.exit(code ?? 0);
});

await waitUntilHealthy(`http://127.0.0.1:${config.port}/healthz`);
process.stdout.write(startBanner(config, demo));

async function waitUntilHealthy(healthUrl: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(healthUrl)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not become healthy at ${healthUrl}`);
}
