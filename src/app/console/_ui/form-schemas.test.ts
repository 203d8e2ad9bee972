import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { consoleRouter } from "@/composition/router";
import { clientCreateInput, clientUpdateInput } from "@/features/auth/console/clients.inputs";
import { grantInput } from "@/features/auth/console/grants.inputs";
import { staffPasswordResetInput, staffUserCreateInput } from "@/features/console/users.inputs";
import { frameOriginAddInput } from "@/features/enrollment/console/frame-origins.inputs";
import { buildingGrantInput } from "@/features/owners/console/building-grants.inputs";
import { ownerSettingsInput } from "@/features/owners/console/settings.inputs";
import { policyReviseInput } from "@/features/policies/console/inputs";
import { sourceCreateInput, sourceUpdateInput } from "@/features/prospects/console/sources.inputs";
import { buildingAddressInput } from "@/features/roster/console/actions.inputs";
import { providerCoverageInput, providerCreateInput } from "@/features/webhooks/console/providers.inputs";

/** Each console form's schema and the procedure it submits to (CONTRIBUTING.md, "A console form"). */
const FORMS: [procedure: string, schema: unknown][] = [
  ["users.create", staffUserCreateInput],
  ["users.resetPassword", staffPasswordResetInput],
  ["sources.create", sourceCreateInput],
  ["sources.update", sourceUpdateInput],
  ["frameOrigins.add", frameOriginAddInput],
  ["buildingGrants.add", buildingGrantInput],
  ["providers.create", providerCreateInput],
  ["providers.addCoverage", providerCoverageInput],
  ["accessClients.create", clientCreateInput],
  ["accessClients.update", clientUpdateInput],
  ["accessClients.grantOwner", grantInput],
  ["owners.updateSettings", ownerSettingsInput],
  ["buildings.correctAddress", buildingAddressInput],
  ["policies.revise", policyReviseInput],
];

const procedures = (consoleRouter as unknown as { _def: { procedures: Record<string, { _def: { inputs: unknown[] } }> } })._def.procedures;

describe("console forms check the procedure's own schema", () => {
  it.each(FORMS)("%s: the form's schema is the very object the procedure's .input() checks", (name, schema) => {
    expect(procedures[name], name).toBeDefined();
    expect(procedures[name]._def.inputs).toContain(schema);
  });
});

// What the browser bundle cannot hold: Node's modules and the server's libraries.
const SERVER_ONLY = /^(node:|drizzle-orm|pg$|postgres|graphile-worker|next-auth|@trpc\/server|pino|pdf-lib)/;
const src = path.resolve(import.meta.dirname, "../../..");

/** The modules a file imports at run time (`import type` is erased), resolved when relative or `@/`. */
function runtimeImports(file: string): { specifier: string; resolved?: string }[] {
  const text = fs.readFileSync(file, "utf8");
  const found = [...text.matchAll(/^(?:import|export)\s+(?!type\s)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm)].map((match) => match[1]);
  return found.map((specifier) => {
    const base = specifier.startsWith("@/")
      ? path.join(src, specifier.slice(2))
      : specifier.startsWith(".")
        ? path.resolve(path.dirname(file), specifier)
        : null;
    if (!base) return { specifier };
    const resolved = [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((candidate) => fs.existsSync(candidate));
    return { specifier, resolved };
  });
}

/** Server-only packages reached from `file`, with the chain of files that reaches each. */
function serverOnlyReached(file: string, seen = new Set<string>(), chain: string[] = []): string[] {
  if (seen.has(file)) return [];
  seen.add(file);
  const here = [...chain, path.relative(src, file)];
  return runtimeImports(file).flatMap(({ specifier, resolved }) => {
    if (resolved) return serverOnlyReached(resolved, seen, here);
    return SERVER_ONLY.test(specifier) ? [`${here.join(" → ")} → ${specifier}`] : [];
  });
}

describe("console form schemas can be bundled for the browser", () => {
  const inputs = fs
    .readdirSync(path.join(src, "features"), { recursive: true, encoding: "utf8" })
    .filter((file) => /(^|[./])inputs\.ts$/.test(path.basename(file)))
    .map((file) => path.join(src, "features", file));

  it("finds the inputs modules", () => {
    expect(inputs.length).toBeGreaterThanOrEqual(FORMS.length / 2);
  });

  it.each(inputs.map((file) => [path.relative(src, file), file]))("%s imports nothing server-only", (_name, file) => {
    expect(serverOnlyReached(file)).toEqual([]);
  });

  it("notices a server-only import (the check itself)", () => {
    expect(serverOnlyReached(path.join(src, "features/console/passwords.ts"))).toEqual([expect.stringContaining("node:crypto")]);
  });
});
