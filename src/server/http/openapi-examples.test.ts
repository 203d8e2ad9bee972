import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

type Sample = { lang: string; label: string; source: string };
type Operation = { description?: string; "x-codeSamples"?: Sample[] };

const root = path.resolve(import.meta.dirname, "../../..");
/** The committed document (`openapi.int.test.ts` holds it equal to the served one). */
const doc = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "__snapshots__/openapi.json"), "utf8")) as {
  paths: Record<string, Record<string, Operation>>;
};
const operations = Object.entries(doc.paths).flatMap(([route, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ at: `${method} ${route}`, operation })),
);

describe("the docs page's examples (docs/decisions.md, Partner developer: SDK, changelog and the breaking-change check)", () => {
  it("show a curl and a TypeScript example on every route, in its description", () => {
    expect(operations.length).toBeGreaterThan(20);
    for (const { at, operation } of operations) {
      const samples = operation["x-codeSamples"] ?? [];
      expect(
        samples.map((sample) => sample.lang),
        at,
      ).toEqual(["Shell", "TypeScript"]);
      for (const sample of samples) expect(operation.description, at).toContain(sample.source);
      expect(samples[0].source, at).toMatch(/^curl -X [A-Z]+ "http/);
    }
  });

  it("compile against the SDK's generated types (a route, parameter or body the SDK would refuse fails here)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "examples-"));
    const files = operations.map(({ operation }, index) => {
      const file = path.join(dir, `example-${index}.ts`);
      fs.writeFileSync(file, `${operation["x-codeSamples"]?.[1]?.source}\nexport {};\n`);
      return file;
    });
    fs.writeFileSync(
      path.join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "esnext",
          moduleResolution: "bundler",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ["node"],
          typeRoots: [path.join(root, "node_modules/@types")],
          paths: { "@partner-integration/sdk": [path.join(root, "packages/partner-sdk/src/index.ts")] },
        },
        files,
      }),
    );
    const tsc = path.join(root, "node_modules/.bin/tsc");
    const result = await promisify(execFile)(tsc, ["-p", path.join(dir, "tsconfig.json")], { cwd: root }).then(
      () => "",
      (failure: { stdout: string }) => failure.stdout,
    );
    expect(result).toBe("");
  });
});
