import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { needsBuild } from "../src/cli/build-state";
import { startBanner } from "../src/cli/start-banner";
import { prepareStart } from "../src/cli/start-sequence";
import { getConfig } from "../src/server/config";
import { closeDb } from "../src/server/db/client";
import { stopSignalClassifier } from "../src/server/lifecycle";
import { refuseUnsafeStart } from "../src/server/start-check";

/**
 * `npm start`: refuses an unsafe configuration (decisions §14), builds when sources changed, starts
 * the database (embedded unless DATABASE_URL is set), migrates, seeds the demo (staging), serves on
 * PORT and prints how to use it. Ctrl-C stops everything: the web process drains, then the
 * database stops, last.
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
// In its own process group, as the embedded PostgreSQL is (src/server/db/embedded.ts): Ctrl-C in a
// terminal signals the whole group, and each signal must reach the web process once, from here
// (a second one forces its stop). The database this process started stops after it exited.
// This process gets a group's signal twice (the group's, and the one `npm start` forwards): the
// repeat is not passed on, a later or different signal is (docs/decisions.md "Signals: one group
// signal is one stop").
const server = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts"], {
  stdio: ["ignore", "inherit", "inherit"],
  detached: true,
  env: { ...process.env, DATABASE_URL: url, NEXT_TELEMETRY_DISABLED: "1", NEXTAUTH_URL: `${config.publicBaseUrl}/console/api/auth` },
});

const classify = stopSignalClassifier();
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (classify(signal) !== "repeated") server.kill(signal);
  });
}
// Should this process die without its signal handlers, the web process does not outlive it.
process.once("exit", () => server.exitCode === null && server.kill("SIGTERM"));
server.on("exit", async (code, signal) => {
  await closeDb();
  process.exit(code ?? (signal ? 1 : 0));
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
