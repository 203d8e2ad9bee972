"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * Re-renders the page from the server every second while the flow waits for a job (underwriting,
 * the policy's document archive). Without JavaScript the `<noscript>` refresh does the same.
 */
export function AutoRefresh() {
  const router = useRouter();
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), 1000);
    return () => clearInterval(timer);
  }, [router]);
  return (
    <noscript>
      <meta httpEquiv="refresh" content="2" />
    </noscript>
  );
}
