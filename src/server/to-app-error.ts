import type { TRPCError } from "@trpc/server";
import type { ZodError } from "zod";
import { AppError, appErrorOf, type ErrorKind, errors, GATEWAY_MESSAGES, KIND_OF_TRPC_CODE } from "./errors";
import { fieldErrorsOf, type InputErrorStyle, inputErrorFor, isInputValidationError } from "./http/input-errors";

/**
 * The one path from anything thrown to an `AppError` (docs/architecture.md "Errors"). Every surface
 * calls it before rendering: the REST gateways (`rest-handler.ts`, then `error-wire.ts`), the
 * console's tRPC formatter and the base procedure every builder starts from (`trpc/init.ts`), the
 * CLI and the enrollment pages' server actions. The status is then the kind's (`STATUS_OF_KIND`),
 * on every surface. In order:
 * 1. an `AppError` anywhere in the cause chain: itself (a feature's, or one a builder threw);
 * 2. the database out of reach: `unavailable`, 503 with `Retry-After` (docs/decisions.md "Faults, proven");
 * 3. tRPC's input validation failure: the route's declared answer (`inputErrors`: the resource- or
 *    field-keyed 422, or the token exchange's OAuth 400), field errors under `invalid` where none is declared;
 * 4. a `ZodError` thrown by other code checking what a caller sent: `invalid` with its field errors;
 * 5. tRPC's and trpc-to-openapi's own errors (unknown route, unreadable input, wrong method or
 *    media type): the kind of the same status (`KIND_OF_TRPC_CODE`);
 * 6. anything else: `internal` (500), the thrown value kept as its cause for the one log line.
 *
 * Database errors are not read for a client's fault beyond step 2: uniqueness rules a caller can
 * break are checked by the features (or written with `on conflict`), which throw `conflict` themselves.
 */
export function toAppError(thrown: unknown, inputErrors?: InputErrorStyle): AppError {
  const known = appErrorOf(thrown);
  if (known) return known;
  if (thrown instanceof Error && isInputValidationError(thrown)) return inputErrorFor(inputErrors, thrown.cause);
  if (isZodError(thrown)) return errors.invalidFields(GATEWAY_MESSAGES.requestInvalid, fieldErrorsOf(thrown));
  if (isTRPCError(thrown)) {
    const kind = KIND_OF_TRPC_CODE[thrown.code];
    if (kind) return new AppError(kind, OWN_MESSAGE[kind] ?? thrown.message, { cause: thrown });
  }
  return errors.internal(thrown);
}

/** Kinds whose message is ours on every surface, whoever raised them; the others keep tRPC's message. */
const OWN_MESSAGE: Partial<Record<ErrorKind, string>> = {
  not_found: GATEWAY_MESSAGES.notFound,
  unauthenticated: GATEWAY_MESSAGES.unauthorized,
  unsupported_media_type: GATEWAY_MESSAGES.mediaType,
};

/** tRPC's error by name, as trpc-to-openapi recognises it. */
function isTRPCError(value: unknown): value is TRPCError {
  return value instanceof Error && value.name === "TRPCError" && typeof (value as { code?: unknown }).code === "string";
}

/** zod's error by name, as tRPC and trpc-to-openapi recognise it. */
function isZodError(value: unknown): value is ZodError {
  return value instanceof Error && value.name === "ZodError" && Array.isArray((value as { issues?: unknown }).issues);
}
