import { SignInForm } from "./sign-in-form";

export const metadata = { title: "Sign in · Console" };

export default function SignInPage() {
  return (
    <main className="signin">
      <h1>Console sign-in</h1>
      <SignInForm />
    </main>
  );
}
