import fs from "node:fs";
import path from "node:path";
import type { DemoCredentials } from "../src/cli/demo-seed";

/** The demo credentials `npm start` seeded for this run's data directory. */
export function demoCredentials(): DemoCredentials {
  return JSON.parse(fs.readFileSync(path.join(".data", "e2e", "demo.json"), "utf8"));
}
