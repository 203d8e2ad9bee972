"use client";

import { type ReactNode, useEffect, useRef } from "react";
import styles from "./enroll.module.css";

/** The step shown last in this document: a different step arriving means the renter moved on. */
let lastStep: string | null = null;

/**
 * A step's `<h1>`. When the page moves to another step (after an action or a self-refresh), focus
 * moves here so keyboard and screen-reader users start at the top of the new step. The first
 * render of a page load leaves focus alone (an embedding page must not have its focus stolen).
 */
export function StepHeading({ step, children }: { step: string; children: ReactNode }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (lastStep !== null && lastStep !== step) ref.current?.focus();
    lastStep = step;
  }, [step]);
  return (
    <h1 ref={ref} tabIndex={-1} className={styles.title}>
      {children}
    </h1>
  );
}
