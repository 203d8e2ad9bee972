import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvVariables } from "./config";

/**
 * The configuration tables a reader trusts (README.md "Configuration", from shared decisions §3;
 * docs/operations.md "Required configuration" and "Environment") name the variables the schema reads,
 * and the schema reads none they leave out (docs/decisions.md, Structure: small truths).
 */
const ROOT = path.resolve(__dirname, "../..");

/** Variables read by others than `getConfig()`: Node itself, Auth.js (set from `PUBLIC_BASE_URL`), OpenTelemetry's SDK. */
const READ_ELSEWHERE = [/^NODE_EXTRA_CA_CERTS$/, /^NEXTAUTH_URL$/, /^OTEL_[A-Z_]+$/];

type Row = { names: string[]; default: string };

/** The first column's backticked names and the second column of the table under `heading`. */
function tableRows(file: string, heading: string): Row[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file}: no heading "${heading}"`);
  const section = text.slice(start + heading.length + 2).split(/\n#{1,6} /)[0];
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [first, second = ""] = line.split("|").slice(1);
      return { names: [...first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]), default: second.trim() };
    });
}

const readme = tableRows("README.md", "## Configuration");
const operations = [...tableRows("docs/operations.md", "## Required configuration"), ...tableRows("docs/operations.md", "## Environment")];
const schemaNames = Object.keys(EnvVariables.shape);
const readElsewhere = (name: string) => READ_ELSEWHERE.some((pattern) => pattern.test(name));

describe("the configuration schema and its documentation", () => {
  it("finds the tables", () => {
    expect(readme.length).toBeGreaterThan(20);
    expect(operations.length).toBeGreaterThan(20);
  });

  it("reads every documented variable", () => {
    const documented = new Set([...readme, ...operations].flatMap((row) => row.names));
    const missing = [...documented].filter((name) => !schemaNames.includes(name) && !readElsewhere(name));
    expect(missing).toEqual([]);
  });

  it("documents every variable it reads in README.md's table", () => {
    const documented = new Set(readme.flatMap((row) => row.names));
    expect(schemaNames.filter((name) => !documented.has(name))).toEqual([]);
  });

  it("defaults as README.md's table says, where the table gives one plain value", () => {
    const defaults = EnvVariables.parse({}) as Record<string, unknown>;
    const plain = readme.filter((row) => row.names.length === 1 && /^`?[^\s`$]+`?$/.test(row.default) && defaults[row.names[0]] !== undefined);
    expect(plain.length).toBeGreaterThan(10);
    for (const row of plain) expect(`${row.names[0]}=${String(defaults[row.names[0]])}`).toBe(`${row.names[0]}=${row.default.replaceAll("`", "")}`);
  });
});
