"use client";

import { useEffect } from "react";
import type { TerminalState } from "@/features/enrollment/flow/contract";

/** States already posted by this document: the message goes out once, whatever re-renders. */
const posted = new Set<string>();

/**
 * The origin framing this page: `location.ancestorOrigins[0]` where the browser has it, else the
 * referrer's origin; null when neither is known.
 */
export function framingOrigin(location: { ancestorOrigins?: { length: number; [index: number]: string } }, referrer: string): string | null {
  const ancestor = location.ancestorOrigins?.length ? location.ancestorOrigins[0] : undefined;
  if (ancestor) return ancestor;
  try {
    return referrer ? new URL(referrer).origin : null;
  } catch {
    return null;
  }
}

/**
 * Embedded flow (spec Enrollment flow; decisions §10): posts the terminal state as a plain string to
 * the framing page, only when that page's origin is allowlisted (`messageOrigins`); never to "*".
 */
export function PostResult({ state, messageOrigins }: { state: TerminalState; messageOrigins: string[] }) {
  useEffect(() => {
    if (window.parent === window || posted.has(state)) return;
    const origin = framingOrigin(window.location, document.referrer);
    if (!origin || !messageOrigins.includes(origin)) return;
    posted.add(state);
    window.parent.postMessage(state, origin);
  }, [state, messageOrigins]);
  return null;
}
