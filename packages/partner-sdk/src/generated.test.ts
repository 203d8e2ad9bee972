import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");

describe("the SDK's generated types", () => {
  it("are what `npm run sdk:generate` makes of the committed OpenAPI snapshot", async () => {
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sdk-")), "openapi.d.ts");
    const bin = path.join(root, "node_modules", ".bin", "openapi-typescript");
    await promisify(execFile)(bin, [path.join(root, "src/server/http/__snapshots__/openapi.json"), "-o", out], { cwd: root });
    const committed = fs.readFileSync(path.join(import.meta.dirname, "openapi.d.ts"), "utf8");
    expect(fs.readFileSync(out, "utf8") === committed, "run `npm run sdk:generate` and commit packages/partner-sdk/src/openapi.d.ts").toBe(true);
  });
});
