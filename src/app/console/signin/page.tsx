import { SignInForm } from "./sign-in-form";

export const metadata = { title: "Sign in · Console" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ error?: string | string[] }> }) {
  const { error } = await searchParams;
  return (
    <main className="signin">
      <h1>Console sign-in</h1>
      <SignInForm errorCode={typeof error === "string" ? error : undefined} />
    </main>
  );
}
