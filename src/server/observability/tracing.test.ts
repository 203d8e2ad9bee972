import { describe, expect, it } from "vitest";
import { summaryOf, tracingRequested } from "./tracing";

describe("statement span names (docs/decisions.md, Traces)", () => {
  it("name the operation and the first table, never a set-returning function or a value", () => {
    expect(summaryOf('with a as (select * from json_to_recordset($1) as s(x int)) insert into "prospects" ("a") select * from a')).toEqual({
      operation: "WITH",
      table: "prospects",
    });
    expect(summaryOf("select graphile_worker.add_job($1::text)")).toEqual({ operation: "SELECT" });
    expect(summaryOf('update "public"."units" set "name" = $1')).toEqual({ operation: "UPDATE", table: "public.units" });
    expect(summaryOf("/* note */ delete from only audit_log where id = $1")).toEqual({ operation: "DELETE", table: "audit_log" });
  });
});

describe("traces are asked for by OpenTelemetry's variables", () => {
  it("only with an OTLP endpoint, and never with OTEL_SDK_DISABLED=true", () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "" })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" })).toBe(false);
  });
});
