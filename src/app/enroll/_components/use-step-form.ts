"use client";

import { useActionState, useEffect, useRef } from "react";
import { type FormState, IDLE } from "./form-state";

/** A step's server action, bound to its link by the page. */
export type StepAction = (previous: FormState, form: FormData) => Promise<FormState>;

/**
 * `useActionState` plus focus: each error answer moves focus to the error summary, so the renter
 * hears what went wrong and can jump to each field from it.
 */
export function useStepForm(action: StepAction, initial: FormState = IDLE) {
  const [state, formAction, pending] = useActionState(action, initial);
  const summaryRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (state.status === "error") summaryRef.current?.focus();
  }, [state]);
  return { state, formAction, pending, summaryRef };
}
