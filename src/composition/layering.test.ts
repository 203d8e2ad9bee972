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
});
