import { initTRPC, type TRPCError } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { z } from "zod";
import { type AppError, appErrorOf, errors, fieldMessagesOf, GATEWAY_MESSAGES } from "../errors";
import { fieldErrorsOf, type InputErrorStyle, isInputValidationError } from "../http/input-errors";
import type { Context } from "./context";

export type Meta = OpenApiMeta<{
  /** Gateway scope the route requires (decisions §5). */
  scope?: string;
  inputErrors?: InputErrorStyle;
  /** The request body is a bare JSON array, delivered to the procedure as `{items}`. */
  arrayBody?: boolean;
  /** The documented schema of one array item (items are validated one by one by the feature). */
  itemSchema?: z.ZodType;
  /** Statuses and bodies to document beyond 200 (OpenAPI post-processing). */
  responses?: { created?: boolean; errors?: number[] };
  /** Console procedures: the permission `staffProcedure` checks (features/console/permissions.ts). */
  permission?: string;
}>;

export const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // The console's rendering of the one error model (errors.ts): kind, status and field errors,
    // never a stack or an unexpected error's text. REST answers are rendered by error-wire.ts.
    errorFormatter({ shape, error }) {
      const known = appErrorOf(error) ?? structuredOf(error);
      return {
        ...shape,
        message: known.message,
        data: {
          ...shape.data,
          stack: undefined,
          kind: known.kind,
          status: known.status,
          fields: known.kind === "invalid" ? fieldMessagesOf(known) : undefined,
        },
      };
    },
  });

/** tRPC's own failures (input validation, unknown procedure) in the one error model; anything else is internal. */
function structuredOf(error: TRPCError): AppError {
  if (isInputValidationError(error)) return errors.invalidFields(GATEWAY_MESSAGES.requestInvalid, fieldErrorsOf(error.cause));
  if (error.code === "NOT_FOUND") return errors.notFound();
  if (error.code === "BAD_REQUEST" || error.code === "PARSE_ERROR") return errors.badRequest(error.message);
  return errors.internal(error);
}

export const router = t.router;
export const middleware = t.middleware;
