"use client";
import type { ComponentProps } from "react";
import { type Control, Controller, type FieldValues, type Path } from "react-hook-form";
import { Select } from "./select";

/** A `Select` bound to a field of a console form (Radix's select is not a native input to register). */
export function FormSelect<T extends FieldValues>({
  control,
  name,
  ...props
}: { control: Control<T, unknown, FieldValues>; name: Path<T> } & Omit<ComponentProps<typeof Select>, "value" | "onValueChange" | "name" | "defaultValue">) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => <Select {...props} name={field.name} value={field.value} onValueChange={field.onChange} />}
    />
  );
}
