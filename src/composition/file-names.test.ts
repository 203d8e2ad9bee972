import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/** One file name per kind of file (CONTRIBUTING.md, "Where things go"), read from the tree itself. */
const features = path.resolve(import.meta.dirname, "../features");
const isTest = (file: string) => /\.test\.tsx?$/.test(file);
const sources = (fs.readdirSync(features, { recursive: true }) as string[])
  .filter((file) => /\.tsx?$/.test(file) && !isTest(file))
  .map((file) => ({ file: file.split(path.sep).join("/"), text: fs.readFileSync(path.join(features, file), "utf8") }));

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
});
