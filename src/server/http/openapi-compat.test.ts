import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { breakingChanges, newestBreakingSection, unannouncedBreakingChanges } from "./openapi-compat";

type Json = Record<string, unknown>;

/** A small document: `POST /things/{id}` taking `{name, size?}` and answering `{status_code, thing: {id, name}}`. */
function doc(edit: (d: { request: Json; response: Json; operation: Json; paths: Json; schemas: Json }) => void = () => {}) {
  const request: Json = {
    type: "object",
    properties: {
      name: { type: "string", maxLength: 100 },
      size: { type: "integer", minimum: 0, maximum: 10 },
      color: { type: "string", enum: ["red", "blue"] },
    },
    required: ["name"],
    additionalProperties: false,
  };
  const schemas: Json = {
    Thing: {
      type: "object",
      properties: { id: { type: "integer" }, name: { type: "string" }, note: { type: ["string", "null"] } },
      required: ["id", "name", "note"],
    },
  };
  const response: Json = {
    type: "object",
    properties: { status_code: { type: "integer" }, thing: { $ref: "#/components/schemas/Thing" } },
    required: ["status_code", "thing"],
  };
  const operation: Json = {
    parameters: [
      { name: "id", in: "path", required: true, schema: { type: "string" } },
      { name: "verbose", in: "query", required: false, schema: { type: "boolean" } },
    ],
    requestBody: { required: true, content: { "application/json": { schema: request } } },
    responses: {
      "200": { description: "ok", content: { "application/json": { schema: response } } },
      "422": { description: "invalid", content: { "application/json": { schema: { type: "object", properties: { status_code: { type: "integer" } } } } } },
      "503": { description: "outage", headers: { "Retry-After": { required: true, schema: { type: "integer" } } } },
    },
  };
  const paths: Json = { "/things/{id}": { post: operation }, "/things": { get: { responses: { "200": { description: "ok" } } } } };
  edit({ request, response, operation, paths, schemas });
  return { openapi: "3.1.0", paths, components: { schemas } } as Parameters<typeof breakingChanges>[0];
}

const props = (schema: Json) => schema.properties as Record<string, Json>;
const changesOf = (edit: Parameters<typeof doc>[0]) => breakingChanges(doc(), doc(edit)).map(({ operation, change }) => `${operation}: ${change}`);

describe("breakingChanges (docs/decisions.md, Partner developer: SDK, changelog and the breaking-change check)", () => {
  it("finds nothing between a document and itself", () => {
    expect(breakingChanges(doc(), doc())).toEqual([]);
  });

  it("lets additions pass: an operation, an optional field, a response field, a status, an enum value, a wider range", () => {
    expect(
      changesOf(({ request, response, operation, paths, schemas }) => {
        paths["/widgets"] = { post: { responses: { "201": { description: "created" } } } };
        props(request).label = { type: "string" };
        props(request).size = { type: ["integer", "null"], minimum: 0, maximum: 20 };
        props(request).color = { type: "string", enum: ["red", "blue", "green"] };
        props(request).name = { type: "string", maxLength: 255 };
        props(response).request_id = { type: "string" };
        props(schemas.Thing as Json).created_at = { type: "string" };
        (operation.responses as Json)["409"] = { description: "conflict" };
        (operation.parameters as Json[]).push({ name: "page", in: "query", required: false, schema: { type: "integer" } });
      }),
    ).toEqual([]);
  });

  it("ignores a renamed path parameter (the request on the wire is the same)", () => {
    expect(
      changesOf(({ paths, operation }) => {
        delete paths["/things/{id}"];
        paths["/things/{thing_id}"] = {
          post: {
            ...operation,
            parameters: [{ name: "thing_id", in: "path", required: true, schema: { type: "string" } }, (operation.parameters as Json[])[1]],
          },
        };
      }),
    ).toEqual([]);
  });

  it("reports a removed path, a removed method, a removed status and a removed response header", () => {
    expect(changesOf(({ paths }) => delete paths["/things"])).toEqual(["GET /things: operation removed"]);
    expect(changesOf(({ operation }) => delete (operation.responses as Json)["422"])).toEqual(["POST /things/{id}: response 422: removed"]);
    expect(changesOf(({ operation }) => delete ((operation.responses as Json)["503"] as Json).headers)).toEqual([
      "POST /things/{id}: response 503: header Retry-After no longer always sent",
    ]);
  });

  it("reports a removed response field, also inside a referenced component, and a field no longer always present", () => {
    expect(changesOf(({ response }) => delete props(response).status_code)).toEqual(["POST /things/{id}: response 200.status_code: field removed"]);
    expect(changesOf(({ schemas }) => delete props(schemas.Thing as Json).name)).toEqual(["POST /things/{id}: response 200.thing.name: field removed"]);
    expect(changesOf(({ schemas }) => ((schemas.Thing as Json).required = ["id", "name"]))).toEqual([
      "POST /things/{id}: response 200.thing.note: no longer always present",
    ]);
    expect(changesOf(({ schemas }) => (props(schemas.Thing as Json).id = { type: "string" }))).toEqual([
      "POST /things/{id}: response 200.thing.id: may now be string",
    ]);
  });

  it("reports a new required request field or parameter and a body newly required", () => {
    expect(changesOf(({ request }) => (request.required as string[]).push("size"))).toEqual(["POST /things/{id}: request body.size: new required field"]);
    expect(
      changesOf(({ operation }) => (operation.parameters as Json[]).push({ name: "mode", in: "header", required: true, schema: { type: "string" } })),
    ).toEqual(["POST /things/{id}: parameter mode (header): new and required"]);
    expect(changesOf(({ operation }) => (operation.requestBody = { ...(operation.requestBody as Json), required: true }))).toEqual([]);
  });

  it("reports a narrowed request type, enum, range, length or pattern, and a field a closed body no longer takes", () => {
    expect(changesOf(({ request }) => (props(request).size = { type: "string" }))).toEqual([
      "POST /things/{id}: request body.size: type integer no longer accepted",
    ]);
    expect(changesOf(({ request }) => (props(request).color = { type: "string", enum: ["red"] }))).toEqual([
      'POST /things/{id}: request body.color: values "blue" no longer accepted',
    ]);
    expect(changesOf(({ request }) => (props(request).size = { type: "integer", minimum: 1, maximum: 10 }))).toEqual([
      "POST /things/{id}: request body.size: minimum raised to 1",
    ]);
    expect(changesOf(({ request }) => (props(request).name = { type: "string", maxLength: 50 }))).toEqual([
      "POST /things/{id}: request body.name: maxLength lowered to 50",
    ]);
    expect(changesOf(({ request }) => (props(request).name = { type: "string", maxLength: 100, pattern: "^[a-z]+$" }))).toEqual([
      "POST /things/{id}: request body.name: pattern now ^[a-z]+$",
    ]);
    expect(changesOf(({ request }) => delete props(request).color)).toEqual(["POST /things/{id}: request body.color: field no longer accepted"]);
    expect(changesOf(({ operation }) => (((operation.parameters as Json[])[1] as Json).schema = { type: "boolean", enum: [true] }))).toEqual([
      "POST /things/{id}: parameter verbose: now limited to true",
    ]);
  });
});

describe("the changelog's Breaking section", () => {
  const changelog = (breaking: string) =>
    `# Changelog\n\n## 2026-12-01\n\n### Added\n\n- \`GET /things\` pages.\n${breaking}\n## 2026-11-26\n\n### Breaking\n\n- \`GET /things\` removed.\n`;

  it("reads the newest dated entry's Breaking section", () => {
    expect(newestBreakingSection(changelog("\n### Breaking\n\n- `GET /things` removed.\n"))).toMatchObject({ date: "2026-12-01" });
    expect(newestBreakingSection(changelog("")).text).toBe("");
  });

  it("lets a breaking change pass only when the newest entry names its operation under Breaking", () => {
    const after = doc(({ paths }) => delete paths["/things"]);
    expect(unannouncedBreakingChanges(doc(), after, changelog(""))).toEqual([{ operation: "GET /things", change: "operation removed" }]);
    // An older entry naming it, or another section of the newest, is not enough.
    expect(unannouncedBreakingChanges(doc(), after, changelog("\n### Changed\n\n- `GET /things` removed.\n"))).toHaveLength(1);
    expect(unannouncedBreakingChanges(doc(), after, changelog("\n### Breaking\n\n- `GET /things` removed: use `POST /things/{id}`.\n"))).toEqual([]);
  });
});

describe("the Partner API document against its baseline (npm test)", () => {
  it("has no breaking change that CHANGELOG.md's newest entry does not list under Breaking", () => {
    const read = (file: string) => fs.readFileSync(path.resolve(file), "utf8");
    const baseline = JSON.parse(read("docs/openapi-baseline.json"));
    const current = JSON.parse(read("src/server/http/__snapshots__/openapi.json"));
    const unannounced = unannouncedBreakingChanges(baseline, current, read("CHANGELOG.md"));
    const advice =
      "a breaking change of the Partner API: name its operation (`METHOD /path`) under `### Breaking` in CHANGELOG.md's newest entry, or undo it; after a release, `npm run openapi:baseline`";
    expect(
      unannounced.map(({ operation, change }) => `${operation}: ${change}`),
      advice,
    ).toEqual([]);
  });
});
