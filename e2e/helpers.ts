import fs from "node:fs";
import path from "node:path";
import type { DemoCredentials } from "../src/cli/demo-seed";

/** The demo credentials `npm start` seeded for this run's data directory. */
export function demoCredentials(): DemoCredentials {
  return JSON.parse(fs.readFileSync(path.join(".data", "e2e", "demo.json"), "utf8"));
}

/**
 * Screenshots of the pages at 375 and 1280 px are for people to look at (`.data/e2e-screens`), so
 * they are taken only when asked: `E2E_SCREENS=1 npm run test:e2e`. A run that nobody looks at
 * (CI, where a fresh clone is thrown away) does not spend a minute capturing them.
 */
export const KEEP_SCREENS = process.env.E2E_SCREENS === "1";
