"use client";
import { useRouter } from "next/navigation";
import { SessionProvider, signIn } from "next-auth/react";
import { type FormEvent, useState } from "react";
import { CONSOLE_AUTH_BASE_PATH } from "@/features/console/constants";

function Form() {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
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
    <form onSubmit={submit}>
      <label>
        Email
        <input name="email" type="email" autoComplete="username" required />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" required />
      </label>
      {error && <p role="alert">{error}</p>}
      <button type="submit" disabled={busy}>
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
