import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

/**
 * docs/decisions.md, "Runbook and packaging" (Node version): the Node versions the project declares
 * are ones every installed dependency declares it runs on, and the Node these tests run on is one of
 * them. Packages for another operating system are never installed here and are left out.
 */
type LockEntry = { version?: string; engines?: { node?: string } | string[]; os?: string[] };
const root = path.resolve(import.meta.dirname, "../..");
const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string } };
const lock = JSON.parse(fs.readFileSync(path.join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> };
const declared = manifest.engines.node;

describe("the Node version the project declares", () => {
  it("is a range every dependency in the lockfile runs on", () => {
    const refusing = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== "" && !Array.isArray(entry.engines) && entry.engines?.node)
      .filter(([, entry]) => !entry.os || entry.os.includes("linux"))
      .filter(([, entry]) => !semver.subset(declared, (entry.engines as { node: string }).node))
      .map(([name, entry]) => `${name.replace(/^.*node_modules\//, "")}@${entry.version} wants node ${(entry.engines as { node: string }).node}`);
    expect(refusing, `package.json says node ${declared}`).toEqual([]);
  });

  it("includes the Node running the tests", () => {
    expect(semver.satisfies(process.version, declared), `${process.version} against ${declared}`).toBe(true);
  });
});
