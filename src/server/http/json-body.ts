import { z } from "zod";

type TakenAsSent<S extends z.ZodRawShape> = { [K in keyof S]: S[K] extends z.ZodString ? S[K] : z.ZodPipe<z.ZodTransform<unknown, unknown>, S[K]> };

/**
 * The input schema of a route with a JSON body: every field takes the JSON value exactly as sent.
 *
 * trpc-to-openapi coerces query strings into numbers and booleans (its README, "Query parameters"),
 * and does so by switching on zod's `coerce` for every plain number, boolean, bigint or date field
 * of the input object, nested objects included, whatever the request's method. For a JSON body
 * that would make `"yes"` a boolean and `"12"` (or `""`) a number, which the specification's
 * typed fields do not allow (decisions: Requests and errors).
 *
 * Each field is declared as a `z.preprocess` that passes the value through unchanged: the README's
 * own tool for inputs that must not be taken as query strings. The adapter leaves preprocessed
 * fields alone, and the field's schema, error messages, optionality and documented JSON Schema stay
 * exactly as written. Query-string routes keep the adapter's coercion (or declare `z.coerce`).
 *
 * Guarded by `rest-adapter.int.test.ts`: a string in any number or boolean field of any body route
 * answers 422, so an upgrade that reaches into preprocessed fields, or a body route declared
 * without this, fails the suite.
 */
export function jsonBody<S extends z.ZodRawShape, C extends z.core.$ZodObjectConfig>(schema: z.ZodObject<S, C>): z.ZodObject<TakenAsSent<S>, C> {
  const asSent = Object.fromEntries(
    // Plain strings are never coerced; path parameters, always plain strings, keep their documented `required`.
    Object.entries(schema.shape).map(([key, field]) => [key, field instanceof z.ZodString ? field : z.preprocess((value) => value, field)]),
  );
  return schema.extend(asSent) as unknown as z.ZodObject<TakenAsSent<S>, C>;
}
