"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { Permission } from "@/features/console/permissions";
import { useCan } from "../../_ui";
import css from "./access.module.css";

/** The access screens, one link each (docs/decisions.md, "Console: access management, part A"); add a screen with one line. */
const ACCESS_SCREENS: { href: string; label: string; permission: Permission }[] = [
  { href: "/console/access/clients", label: "API clients", permission: "access.read" },
  { href: "/console/access/building-grants", label: "Building grants", permission: "access.read" },
  { href: "/console/access/providers", label: "Providers", permission: "access.read" },
  { href: "/console/access/sources", label: "Sources", permission: "access.read" },
  { href: "/console/access/frame-origins", label: "Frame origins", permission: "access.read" },
  { href: "/console/access/users", label: "Users", permission: "users.manage" },
];

function AccessLink({ href, label, permission }: (typeof ACCESS_SCREENS)[number]) {
  const pathname = usePathname();
  if (!useCan(permission)) return null;
  return (
    <li>
      <Link href={href} aria-current={pathname === href || pathname.startsWith(`${href}/`) ? "page" : undefined}>
        {label}
      </Link>
    </li>
  );
}

export function AccessNav() {
  return (
    <nav aria-label="Access" className={css.subnav}>
      <ul>
        {ACCESS_SCREENS.map((screen) => (
          <AccessLink key={screen.href} {...screen} />
        ))}
      </ul>
    </nav>
  );
}
