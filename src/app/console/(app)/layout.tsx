import { headers } from "next/headers";
import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { consoleUserOf } from "@/features/console/auth-options";
import { permissionsOf } from "@/features/console/permissions";
import { ConsoleNav } from "../_ui/nav";
import { PermissionsProvider } from "../_ui/permissions";
import { ConsoleQueryProvider } from "../_ui/trpc";
import styles from "../_ui/ui.module.css";
import { SignOutButton } from "./sign-out-button";

export const dynamic = "force-dynamic";

/** Every console page is behind sign-in (decisions §1); the navigation shows what the role may do. */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await consoleUserOf(await headers());
  if (!user) redirect("/console/signin");
  return (
    <ConsoleQueryProvider>
      <PermissionsProvider permissions={permissionsOf(user.role)}>
        <div className="console">
          <header className={styles.header}>
            <Link href="/console" className={styles.brand}>
              Partner Integration Service
            </Link>
            <ConsoleNav />
            <span className={styles.who}>
              {user.email} · {user.role.replace("_", " ")} <SignOutButton />
            </span>
          </header>
          <main className={styles.main}>{children}</main>
        </div>
      </PermissionsProvider>
    </ConsoleQueryProvider>
  );
}
