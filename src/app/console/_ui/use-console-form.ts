"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { type BaseSyntheticEvent, useState } from "react";
import { type DefaultValues, type FieldErrors, type FieldValues, get, type Resolver, type UseFormReturn, useForm } from "react-hook-form";
import type { z } from "zod";
import { failureOf } from "./form-errors";

/** The part of a `useConsoleMutation` a form drives. */
type FormMutation<TInput, TData> = {
  mutate: (variables: TInput, options?: { onSuccess?: (data: TData) => void }) => void;
  reset: () => void;
  error: unknown;
  isPending: boolean;
};

/**
 * A console form (CONTRIBUTING.md, "A console form"): react-hook-form checking the very zod schema
 * the procedure's `.input()` checks, so a value the server would refuse is refused before it is
 * sent, with the same message beside the same field. What only the server knows (a conflict, a
 * rule of the domain) comes back as the console formatter's field errors and is shown beside its
 * field too; a failure no field of the form carries is the `general` message.
 *
 * - `defaultValues` names every field of the input (values the form does not show, such as an id,
 *   travel with them); `fields` lists the names errors are shown beside when they are nested
 *   (`address.state`), and `aliases` maps a server's field name to the form's (`state` →
 *   `address.state`).
 * - `precheck` refuses what the operator typed in a form the schema does not take (dollars for
 *   cents, converted with `register`'s `setValueAs`), before the schema is checked.
 * - `toInput` shapes the checked values into what is sent (only the changed values, say).
 * - `resetOnSuccess` empties a create form once its mutation succeeded; `done` holds the last
 *   success's answer until the next submit (the "created" or "saved" message).
 */
export function useConsoleForm<TSchema extends z.ZodType<FieldValues, FieldValues>, TData>({
  schema,
  defaultValues,
  mutation,
  fields,
  aliases,
  precheck,
  toInput = (values) => values,
  resetOnSuccess = false,
}: {
  schema: TSchema;
  defaultValues: DefaultValues<z.input<TSchema>>;
  mutation: FormMutation<z.output<TSchema>, TData>;
  fields?: readonly string[];
  aliases?: Readonly<Record<string, string>>;
  precheck?: (values: z.input<TSchema>) => Record<string, string>;
  toInput?: (values: z.output<TSchema>) => z.output<TSchema>;
  resetOnSuccess?: boolean;
}) {
  // The resolver's overloads cannot infer through a generic schema; its types are the schema's own.
  const checkSchema = zodResolver(schema as never) as unknown as Resolver<z.input<TSchema>, unknown, z.output<TSchema>>;
  const resolver: Resolver<z.input<TSchema>, unknown, z.output<TSchema>> = (values, context, options) => {
    const typed = Object.entries(precheck?.(values) ?? {});
    if (!typed.length) return checkSchema(values, context, options);
    const errors = Object.fromEntries(typed.map(([name, message]) => [name, { type: "typed", message }]));
    return { values: {}, errors: errors as FieldErrors<z.input<TSchema>> };
  };
  const form: UseFormReturn<z.input<TSchema>, unknown, z.output<TSchema>> = useForm<z.input<TSchema>, unknown, z.output<TSchema>>({
    resolver,
    defaultValues,
    // Focus stays where the operator left it, as it does for an error the server finds.
    shouldFocusError: false,
  });
  const [done, setDone] = useState<TData | null>(null);
  const server = failureOf(mutation.error, fields ?? Object.keys(defaultValues ?? {}), aliases);
  const onSubmit = (event?: BaseSyntheticEvent) =>
    form.handleSubmit(
      (values) => {
        setDone(null);
        mutation.mutate(toInput(values), {
          onSuccess: (data) => {
            setDone(data);
            if (resetOnSuccess) form.reset();
          },
        });
      },
      () => {
        // The form's own messages replace the last answer's.
        setDone(null);
        mutation.reset();
      },
    )(event);
  /** The message beside a field: the form's own, else the server's. */
  const errorOf = (name: string): string | undefined => {
    const own = messagesIn(get(form.formState.errors, name));
    return own.length ? own.join("; ") : server.fields[name];
  };
  return { form, register: form.register, control: form.control, onSubmit, errorOf, general: server.general, done, pending: mutation.isPending };
}

/** The messages of one field's error, including those of its items (`scopes.0`) and its root. */
export function messagesIn(error: unknown): string[] {
  if (!error || typeof error !== "object") return [];
  const { message } = error as { message?: unknown };
  if (typeof message === "string" && message) return [message];
  return Object.entries(error).flatMap(([key, value]) => (key === "ref" || key === "types" ? [] : messagesIn(value)));
}
