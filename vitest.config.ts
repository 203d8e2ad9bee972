import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname, "src") };

/** Tiers by file name (style §7): `*.test.ts` pure units, `*.int.test.ts` against a real PostgreSQL. */
export default defineConfig({
  resolve: { alias },
  test: {
    // Vitest's default is one worker less than the cores: one on this 2-core machine, which left the
    // second core idle while integration tests wait on processes, timers and PostgreSQL (the suite took
    // 20 min). Two workers, one per core.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        // Some units start processes (dependency-cruiser, a logging child): 5 s is too tight on a busy 2-core machine.
        test: {
          name: "unit",
          include: ["src/**/*.test.ts", "packages/*/src/**/*.test.ts"],
          exclude: ["src/**/*.int.test.ts", "packages/*/src/**/*.int.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["src/**/*.int.test.ts", "packages/*/src/**/*.int.test.ts"],
          globalSetup: ["src/test/global-setup.ts"],
          setupFiles: ["src/test/setup-db.ts"],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
