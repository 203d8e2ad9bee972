"use client";
import { useRouter } from "next/navigation";
import { SessionProvider, signIn } from "next-auth/react";
import { type FormEvent, useEffect, useState } from "react";
import { CONSOLE_AUTH_BASE_PATH, SIGN_IN_THROTTLED } from "@/features/console/constants";

/** What the page says for next-auth's error code (decisions §15: too many failures say to try later). */
function signInErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  if (code === SIGN_IN_THROTTLED) return "Too many failed sign-in attempts. Try again in 15 minutes.";
  if (code === "CredentialsSignin") return "Email or password is not correct.";
  return "Sign-in is not available right now. Try again later.";
}

function Form({ initialError }: { initialError: string | null }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(initialError);
  const [busy, setBusy] = useState(false);
  // Until the page is interactive the button stays disabled: a native submit would send the form
  // before `submit` runs. `method="post"` keeps even that from putting the password in a URL.
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const data = new FormData(event.currentTarget);
    const result = await signIn("credentials", { email: data.get("email"), password: data.get("password"), redirect: false });
    setBusy(false);
    if (result?.ok && !result.error) router.replace("/console");
    else setError(signInErrorMessage(result?.error ?? "CredentialsSignin"));
  }
  return (
    <form method="post" onSubmit={submit}>
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error && <p role="alert">{error}</p>}
      <button type="submit" disabled={busy || !ready}>
        {busy ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}

/** `errorCode`: next-auth's `?error=` when it sent the browser here (a sign-in posted without script). */
export function SignInForm({ errorCode }: { errorCode?: string }) {
  return (
    <SessionProvider basePath={CONSOLE_AUTH_BASE_PATH}>
      <Form initialError={signInErrorMessage(errorCode)} />
    </SessionProvider>
  );
}
