/**
 * Layering (docs/architecture.md, "Layers"), checked by `npm run check`:
 * - `src/server` is infrastructure: it imports no feature, no page and not the composition root;
 * - `src/features/<feature>` owns one part of the specification: it imports infrastructure and other
 *   features' public entries, never pages, the composition root, the CLI or the test harness. A
 *   feature's public entry is everything but its surfaces (`api/`, `console/`, `flow/`, at any depth:
 *   the procedures and pages' actions the composition root and the pages reach) and its test helpers;
 * - `src/composition` is the one place the registries live (router, task list, table list);
 * - `src/app` routes and renders; the test harness (`src/test`) serves tests only;
 * - no import cycles anywhere (type-only imports count too).
 * Tests (`*.test.ts`) exercise layers together and may import across them, but never form cycles.
 */
const TESTS = "\\.test\\.tsx?$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "An import cycle: split the shared piece out, or move the import to the composition root.",
      from: {},
      to: { circular: true },
    },
    {
      name: "server-is-infrastructure",
      severity: "error",
      comment: "src/server imports no feature, page, CLI or the composition root: pass what it needs in from the composition root.",
      from: { path: "^src/server/", pathNot: TESTS },
      to: { path: "^src/(features|app|composition|cli|test)/" },
    },
    {
      name: "features-stay-below-the-root",
      severity: "error",
      comment: "A feature never imports pages, the composition root, the CLI or the test harness.",
      from: { path: "^src/features/", pathNot: [TESTS, "test-helpers\\.ts$"] },
      to: { path: "^src/(app|composition|cli|test)/" },
    },
    {
      name: "features-enter-through-their-public-entry",
      severity: "error",
      comment:
        "A feature's surfaces (api/, console/, flow/) are its own: another feature imports its top-level files or domain folders. Move the shared piece out of the surface.",
      from: { path: "^src/features/([^/]+)/", pathNot: [TESTS, "test-helpers\\.ts$"] },
      to: {
        path: ["^src/features/[^/]+/(api|console|flow)/", "^src/features/[^/]+/[^/]+/(api|console|flow)/"],
        pathNot: "^src/features/$1/",
      },
    },
    {
      name: "test-helpers-only-in-tests",
      severity: "error",
      comment: "A feature's test helpers (*-test-helpers.ts) serve tests and the test harness only.",
      from: { path: "^src/", pathNot: ["^src/test/", TESTS, "test-helpers\\.ts$"] },
      to: { path: "test-helpers\\.ts$" },
    },
    {
      name: "composition-is-not-imported-by-lower-layers",
      severity: "error",
      comment: "Only pages, the CLI, scripts, benchmarks and tests reach the composition root.",
      from: { path: "^src/", pathNot: ["^src/(app|cli|composition|test)/", TESTS] },
      to: { path: "^src/composition/" },
    },
    {
      name: "test-harness-only-in-tests",
      severity: "error",
      comment: "src/test is the test harness: production code never imports it.",
      from: { path: "^src/", pathNot: ["^src/test/", TESTS, "test-helpers\\.ts$"] },
      to: { path: "^src/test/" },
    },
    {
      name: "no-unresolvable",
      severity: "error",
      comment: "An import that resolves to nothing.",
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
