import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AppError, type ErrorKind, errors, STATUS_OF_KIND } from "../errors";
import { openApiErrorResponse, restAnswerOf } from "./error-wire";

describe("the one error model on the REST wire", () => {
  it("answers the specification's exact bodies", () => {
    expect(restAnswerOf(errors.gatewayUnauthorized())).toEqual({ status: 401, body: { message: "Unauthorized" } });
    expect(restAnswerOf(errors.gatewayForbidden())).toEqual({ status: 403, body: { message: "Forbidden" } });
    expect(restAnswerOf(errors.accessDenied())).toEqual({ status: 401, body: { error: "access_denied", error_description: "Unauthorized" } });
    expect(restAnswerOf(errors.oauth("invalid_scope", "Scopes not granted"))).toEqual({
      status: 400,
      body: { error: "invalid_scope", error_description: "Scopes not granted" },
    });
    expect(restAnswerOf(errors.notFound("Property owner not found"))).toEqual({ status: 404, body: { status_code: 404, error: "Property owner not found" } });
    expect(restAnswerOf(errors.invalidSignature())).toEqual({ status: 401, body: { status_code: 401, error: "Invalid request signature" } });
  });

  it("renders a 422 keyed by field, by resource, and with a failed nested item", () => {
    expect(restAnswerOf(errors.invalidFields("Owner is invalid", { name: ["is required"] })).body).toEqual({
      status_code: 422,
      error: "Owner is invalid",
      errors: { name: ["is required"] },
    });
    expect(restAnswerOf(errors.invalidResource("Move-out is invalid", "move_out", { external_id: ["can't be blank", "is too long"] })).body).toEqual({
      status_code: 422,
      error: "Move-out is invalid",
      move_out: { external_id: "can't be blank; is too long" },
    });
    expect(restAnswerOf(errors.invalidNested("Prospect is invalid", "prospect", "unit", { name: ["is required"] })).body).toEqual({
      status_code: 422,
      error: "Prospect is invalid",
      prospect: { unit: { name: ["is required"] } },
    });
  });

  it("documents every status a kind answers, from the same table", () => {
    for (const [kind, status] of Object.entries(STATUS_OF_KIND) as [ErrorKind, number][]) {
      const route = kind === "access_denied" || kind === "oauth_invalid" ? { kind: "oauth" as const } : undefined;
      const documented = openApiErrorResponse(status, route) as { content: { "application/json": { schema: Record<string, unknown> } } };
      const schema = documented.content["application/json"].schema;
      const schemas = (schema.oneOf as Record<string, unknown>[] | undefined) ?? [schema];
      const body = restAnswerOf(new AppError(kind, "message", { oauthCode: "invalid_request" })).body;
      // The body answered has exactly the required fields of one documented schema.
      expect(schemas.some((s) => ((s.required as string[]) ?? []).every((field) => field in body))).toBe(true);
    }
  });

  it("never leaks an unexpected error's text", () => {
    const answer = restAnswerOf(errors.internal(new Error("connection to 10.0.0.5 refused, password=…")));
    expect(answer).toEqual({ status: 500, body: { status_code: 500, error: "Internal server error" } });
  });
});

describe("domain code throws structured errors", () => {
  it("no feature throws a plain Error (operators and partners get a kind and a message)", () => {
    const root = path.resolve(import.meta.dirname, "../../features");
    const offenders: string[] = [];
    for (const file of fs.readdirSync(root, { recursive: true }) as string[]) {
      if (!/\.tsx?$/.test(file) || /\.test\.ts$|test-helpers\.ts$/.test(file)) continue;
      const text = fs.readFileSync(path.join(root, file), "utf8");
      text.split("\n").forEach((line, index) => {
        if (/throw new (Type|Range)?Error\(/.test(line)) offenders.push(`${file}:${index + 1}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
