"use client";
import { SessionProvider, signOut } from "next-auth/react";
import { CONSOLE_AUTH_BASE_PATH } from "@/features/console/constants";

export function SignOutButton() {
  return (
    <SessionProvider basePath={CONSOLE_AUTH_BASE_PATH}>
      <button type="button" className="link" onClick={() => signOut({ callbackUrl: "/console/signin" })}>
        Sign out
      </button>
    </SessionProvider>
  );
}
