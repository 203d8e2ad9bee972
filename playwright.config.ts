import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_DATA_DIR = ".data/e2e";
export const E2E_BASE_URL = `http://localhost:${PORT}`;
/** The second lane's specs: the accessibility audits, and the specs that only read pages or make their own renters. */
const SECOND_LANE = /(accessibility-[a-z-]+|demo|docs|framing|malformed-paths)\.spec\.ts$/;

/** End-to-end tests drive Debian's Chromium (never a downloaded browser) against `npm start`. */
export default defineConfig({
  testDir: "e2e",
  // The longest test (an accessibility audit of every enrollment step at both widths) takes about
  // 50 s beside the other lane on two cores: the bound is for a test that hangs, not a budget.
  timeout: 120_000,
  // Beside the other lane a step can take longer than its usual second or two: a console sign-in
  // hashes its password with scrypt (N=2^17) on a thread pool both lanes' sign-ins share.
  expect: { timeout: 15_000 },
  retries: 0,
  // Two lanes side by side against the one server, each running its files one at a time: the
  // accessibility audits (pages they make for themselves, or messages rendered locally) and the specs
  // that only read pages or make their own renters (the demo page, the API reference, framing,
  // malformed paths) beside every other spec, which keep their one-at-a-time order (some arm processor
  // declines, count deliveries, or sign in and out) as before. The read-only specs are in the second
  // lane so that the two end together: with the audits alone, it ended two minutes before the other.
  // A lane is a project of one worker.
  workers: 2,
  projects: [
    { name: "flows", testIgnore: SECOND_LANE, workers: 1 },
    { name: "pages", testMatch: SECOND_LANE, workers: 1 },
  ],
  reporter: [["list"]],
  use: {
    baseURL: E2E_BASE_URL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    // scripts/start.ts behind a wrapper that first makes the CA the HTTPS webhook receivers use.
    command: "npx tsx e2e/support/start-server.ts",
    url: `http://localhost:${PORT}/healthz`,
    timeout: 240_000,
    reuseExistingServer: false,
    // npm start keeps the web process and the embedded PostgreSQL in process groups of their own
    // (docs/operations.md, Shutdown), out of reach of a SIGKILL of this command's group: a SIGTERM
    // lets it stop them in order, as Ctrl-C does. Without it they outlive the run and hold its pipe.
    gracefulShutdown: { signal: "SIGTERM", timeout: 60_000 },
    stdout: "ignore",
    stderr: "pipe",
    // Webhooks go to the tests' receivers on loopback (decisions §3).
    env: { PORT: String(PORT), DATA_DIR: E2E_DATA_DIR, LOG_LEVEL: "warn", WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1" },
  },
});
