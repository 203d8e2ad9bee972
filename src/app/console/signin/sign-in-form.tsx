"use client";
import { useRouter } from "next/navigation";
import { SessionProvider, signIn } from "next-auth/react";
import { type FormEvent, useEffect, useState } from "react";
import { CONSOLE_AUTH_BASE_PATH } from "@/features/console/constants";

function Form() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
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
    else setError("Email or password is not correct.");
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

export function SignInForm() {
  return (
    <SessionProvider basePath={CONSOLE_AUTH_BASE_PATH}>
      <Form />
    </SessionProvider>
  );
}
