import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { currentUser } from "@/features/console/auth-options";
import { SignOutButton } from "./sign-out-button";

export const dynamic = "force-dynamic";

/** Every console page is behind sign-in (decisions §1). */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) redirect("/console/signin");
  return (
    <div className="console">
      <header className="console-header">
        <Link href="/console" className="brand">
          Partner Integration Service
        </Link>
        <nav>
          <Link href="/console">Owners</Link>
          <Link href="/console/policies">Policies</Link>
          <Link href="/console/ingestion">Ingested events</Link>
        </nav>
        <span className="who">
          {user.email} · {user.role.replace("_", " ")} <SignOutButton />
        </span>
      </header>
      <main>{children}</main>
    </div>
  );
}
