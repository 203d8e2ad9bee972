import { initTRPC } from "@trpc/server";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { z } from "zod";
import { fieldMessagesOf, toTRPCError, trpcCodeOf } from "../errors";
import { type InputErrorStyle, isInputValidationError } from "../http/input-errors";
import { toAppError } from "../to-app-error";
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
  responses?: { created?: boolean; accepted?: boolean; errors?: number[] };
  /** Console procedures: the permission `staffProcedure` checks (features/console/permissions.ts). */
  permission?: string;
}>;

export const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // The console's wire: the AppError of whatever was thrown (`toAppError`) with its kind, status
    // and field errors, never a stack or an unexpected error's text. REST answers are rendered by
    // error-wire.ts from the same AppError.
    errorFormatter({ shape, error }) {
      const known = toAppError(error);
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

/**
 * Where an error's status is set, once, for every procedure: each builder (partner, ingestion,
 * token exchange, console) starts from `baseProcedure`. A failure leaves the procedure as a tRPC
 * error whose code is the status of its AppError (`toAppError`): a feature's `conflict` is tRPC's
 * CONFLICT (409), not the INTERNAL_SERVER_ERROR tRPC makes of anything thrown, so a caller's `code`,
 * the console's HTTP status and the REST answer agree. tRPC's own input validation failure passes as
 * it is (BAD_REQUEST, its ZodError as cause): each surface renders it in its own shape, the REST
 * routes by their declared `inputErrors`.
 */
const statusOfFailure = t.middleware(async ({ next }) => {
  const result = await next();
  if (result.ok || isInputValidationError(result.error)) return result;
  const failure = toAppError(result.error);
  if (result.error.code === trpcCodeOf(failure)) return result;
  throw toTRPCError(failure);
});

export const baseProcedure = t.procedure.use(statusOfFailure);

export const router = t.router;
export const middleware = t.middleware;
