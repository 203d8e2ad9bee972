import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FEATURE_TASKS } from "./tasks";

/** One file name per kind of file (CONTRIBUTING.md, "Where things go"), read from the tree itself. */
const features = path.resolve(import.meta.dirname, "../features");
const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const sources = (fs.readdirSync(features, { recursive: true }) as string[])
  .filter((file) => /\.tsx?$/.test(file) && !isTest(file))
  .map((file) => ({ file: file.split(path.sep).join("/"), text: fs.readFileSync(path.join(features, file), "utf8") }));
const TASK_NAME = /^[a-z][a-z0-9_]*__[a-z][a-z0-9_]*$/;

describe("where each kind of file is", () => {
  it("finds the feature sources", () => {
    expect(sources.length).toBeGreaterThan(100);
  });

  it("composes tRPC routers only in a feature's api/router.ts and console/router.ts", () => {
    const routers = sources.filter(({ text }) => /\brouter\(\{/.test(text)).map(({ file }) => file);
    expect(routers.length).toBeGreaterThan(10);
    expect(routers.filter((file) => !/^[a-z-]+\/(api|console)\/router\.ts$/.test(file))).toEqual([]);
  });

  it("declares tables only in <name>.table.ts files", () => {
    const tables = sources.filter(({ text }) => /\bpgTable\(/.test(text)).map(({ file }) => file);
    expect(tables.length).toBeGreaterThan(10);
    expect(tables.filter((file) => !file.endsWith(".table.ts"))).toEqual([]);
  });

  it("declares each task once, in the file named after it, with its handler there or in <task>.handler.ts beside it", () => {
    const declaring = sources.filter(({ text }) => /\b(declareTask|defineTask)\(/.test(text));
    for (const { file } of declaring) {
      const [, task, handler] = /(?:^|\/)([^/]+?)(\.handler)?\.ts$/.exec(file) ?? [];
      expect(task, file).toMatch(TASK_NAME);
      if (handler) expect(fs.existsSync(path.join(features, file.replace(/\.handler\.ts$/, ".ts"))), file).toBe(true);
    }
    for (const task of FEATURE_TASKS) {
      const naming = sources.filter(({ text }) => text.includes(`name: "${task.name}"`)).map(({ file }) => path.basename(file));
      expect(naming, task.name).toEqual([`${task.name}.ts`]);
    }
  });
});
