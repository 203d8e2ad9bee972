import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const depcruise = path.join(root, "node_modules", "dependency-cruiser", "bin", "dependency-cruise.mjs");

/** Runs the project's layering rules (`npm run check`) over a small tree of files. */
function cruise(files: Record<string, string>): { status: number | null; output: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "layering-"));
  try {
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "esnext", moduleResolution: "bundler" } }));
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      fs.writeFileSync(path.join(dir, file), text);
    }
    const run = spawnSync(process.execPath, [depcruise, "src", "--config", path.join(root, ".dependency-cruiser.cjs")], { cwd: dir, encoding: "utf8" });
    return { status: run.status, output: run.stdout + run.stderr };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("layering (npm run check)", () => {
  it("passes a tree that keeps its layers", () => {
    const answer = cruise({
      "src/server/db.ts": "export const db = 1;\n",
      "src/features/a/service.ts": 'import { db } from "../../server/db";\nexport const a = db;\n',
      "src/composition/router.ts": 'import { a } from "../features/a/service";\nexport const r = a;\n',
      "src/app/page.ts": 'import { r } from "../composition/router";\nexport const p = r;\n',
    });
    expect(answer.output).toContain("no dependency violations");
    expect(answer.status).toBe(0);
  });

  it("fails when infrastructure imports a feature", () => {
    const answer = cruise({
      "src/features/a/service.ts": "export const a = 1;\n",
      "src/server/registry.ts": 'import { a } from "../features/a/service";\nexport const r = a;\n',
    });
    expect(answer.status).not.toBe(0);
    expect(answer.output).toContain("server-is-infrastructure");
  });

  it("fails on an import cycle, and on a feature reaching the composition root", () => {
    const answer = cruise({
      "src/features/a/one.ts": 'import type { Two } from "./two";\nexport type One = Two;\n',
      "src/features/a/two.ts": 'import type { One } from "./one";\nexport type Two = One | 2;\n',
      "src/composition/router.ts": "export const r = 1;\n",
      "src/features/b/uses-root.ts": 'import { r } from "../../composition/router";\nexport const b = r;\n',
    });
    expect(answer.status).not.toBe(0);
    expect(answer.output).toContain("no-cycles");
    expect(answer.output).toContain("features-stay-below-the-root");
  });

  it("lets a feature import another's top level and domain folders, and the composition root its surfaces", () => {
    const answer = cruise({
      "src/features/a/service.ts": "export const a = 1;\n",
      "src/features/a/merge/plan.ts": "export const plan = 1;\n",
      "src/features/a/console/router.ts": 'import { a } from "../service";\nexport const r = a;\n',
      "src/features/b/uses-a.ts": 'import { a } from "../a/service";\nimport { plan } from "../a/merge/plan";\nexport const b = a + plan;\n',
      "src/features/b/console/router.ts": 'import { b } from "../uses-a";\nexport const r = b;\n',
      "src/composition/console-router.ts": 'import { r } from "../features/a/console/router";\nexport const c = r;\n',
    });
    expect(answer.output).toContain("no dependency violations");
    expect(answer.status).toBe(0);
  });

  it("fails when a feature reaches into another feature's surfaces (api/, console/, flow/)", () => {
    const answer = cruise({
      "src/features/a/console/screen.ts": "export const screen = 1;\n",
      "src/features/a/merge/api/route.ts": "export const route = 1;\n",
      "src/features/a/flow/service.ts": "export const flow = 1;\n",
      "src/features/b/console/router.ts": 'import { screen } from "../../a/console/screen";\nexport const r = screen;\n',
      "src/features/b/uses-a.ts": 'import { route } from "../a/merge/api/route";\nimport { flow } from "../a/flow/service";\nexport const b = route + flow;\n',
    });
    expect(answer.status).not.toBe(0);
    expect(answer.output.match(/features-enter-through-their-public-entry/g)).toHaveLength(3);
  });

  it("fails when production code imports a test helper", () => {
    const answer = cruise({
      "src/features/a/a-test-helpers.ts": "export const helper = 1;\n",
      "src/features/b/service.ts": 'import { helper } from "../a/a-test-helpers";\nexport const b = helper;\n',
      "src/features/b/service.int.test.ts": 'import { helper } from "../a/a-test-helpers";\nexport const t = helper;\n',
    });
    expect(answer.status).not.toBe(0);
    expect(answer.output.match(/test-helpers-only-in-tests/g)).toHaveLength(1);
  });
});
