import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { z } from "zod";
import type { Scope } from "../../features/auth/scopes";
import { appErrorOf, fieldMessagesOf, GATEWAY_MESSAGES } from "../errors";
import type { Context } from "./context";

/**
 * How a request's input validation failure is answered (spec Errors, Body shapes):
 * - `oauth`: token exchange, `{error: "invalid_request", error_description}` (400)
 * - `fields`: `{status_code: 422, error, errors: {field: [messages]}}`
 * - `resource`: `{status_code: 422, error, <key>: {field: message}}` (prospects, move-outs)
 */
export type InputErrorStyle = { kind: "oauth" } | { kind: "fields"; error: string } | { kind: "resource"; key: string; error: string };

export type Meta = OpenApiMeta<{
  /** Gateway scope the route requires (decisions §5). */
  scope?: Scope;
  inputErrors?: InputErrorStyle;
  /** The request body is a bare JSON array, delivered to the procedure as `{items}`. */
  arrayBody?: boolean;
  /** The documented schema of one array item (items are validated one by one by the feature). */
  itemSchema?: z.ZodType;
  /** Statuses and bodies to document beyond 200 (OpenAPI post-processing). */
  responses?: { created?: boolean; errors?: number[] };
}>;

export const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // The console's rendering of the one error model (errors.ts): kind, status and field errors,
    // never a stack or an unexpected error's text. REST answers are rendered by error-wire.ts.
    errorFormatter({ shape, error }) {
      const known = appErrorOf(error);
      return {
        ...shape,
        message: known?.message ?? GATEWAY_MESSAGES.internal,
        data: {
          ...shape.data,
          stack: undefined,
          kind: known?.kind ?? "internal",
          status: known?.status ?? 500,
          fields: known ? fieldMessagesOf(known) : undefined,
        },
      };
    },
  });

export const router = t.router;
export const middleware = t.middleware;
