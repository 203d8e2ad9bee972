import { TRPCClientError } from "@trpc/client";
import { describe, expect, it } from "vitest";
import { failureOf, linesOf } from "./form-errors";
import { messagesIn } from "./use-console-form";

/** A failed console mutation as the client sees it: the console formatter's `data.fields`. */
const failed = (message: string, fields?: Record<string, string[]>) =>
  new TRPCClientError(message, { result: { error: { message, code: -32600, data: { kind: "invalid", status: 422, fields } } } } as never);

describe("failureOf: a server's field errors beside the form's fields", () => {
  it("places each field's messages, items under their list (`scopes.0` → `scopes`)", () => {
    const answer = failureOf(failed("Request invalid", { name: ["is required"], "scopes.0": ["unknown scope"], "scopes.1": ["unknown scope too"] }), [
      "name",
      "scopes",
    ]);
    expect(answer).toEqual({ fields: { name: "is required", scopes: "unknown scope; unknown scope too" }, general: null });
  });

  it("takes a server's name for the form's through an alias (the domain's `state` is the form's `address.state`)", () => {
    const answer = failureOf(failed("Address invalid", { state: ["must be a US state"] }), ["address.state"], { state: "address.state" });
    expect(answer).toEqual({ fields: { "address.state": "must be a US state" }, general: null });
  });

  it("says what no field of the form carries in the general message", () => {
    expect(failureOf(failed("Request invalid", { client_id: ["No client"] }), ["name"])).toEqual({
      fields: {},
      general: "Request invalid (client_id: No client)",
    });
  });

  it("shows an error without fields (a conflict), or with only `base`, as the general message", () => {
    expect(failureOf(failed("Source e2e already exists"), ["code"])).toEqual({ fields: {}, general: "Source e2e already exists" });
    expect(failureOf(failed("Nothing to change", { base: ["Nothing to change"] }), ["note"])).toEqual({ fields: {}, general: "Nothing to change" });
  });

  it("is empty without an error", () => {
    expect(failureOf(null, ["name"])).toEqual({ fields: {}, general: null });
  });
});

describe("messagesIn: a react-hook-form field error's messages", () => {
  it("reads a field's message, its items' and a nested object's, never the element it refers to", () => {
    expect(messagesIn({ type: "too_small", message: "Too small", ref: { message: "not this" } })).toEqual(["Too small"]);
    expect(messagesIn([undefined, { external_id: { type: "too_small", message: "Too small" } }])).toEqual(["Too small"]);
    expect(messagesIn(undefined)).toEqual([]);
  });
});

describe("linesOf", () => {
  it("splits at lines and commas, trimmed, blanks dropped", () => {
    expect(linesOf(" a.example.com \n\n b.example.com, c.example.com ")).toEqual(["a.example.com", "b.example.com", "c.example.com"]);
    expect(linesOf(undefined)).toEqual([]);
  });
});
