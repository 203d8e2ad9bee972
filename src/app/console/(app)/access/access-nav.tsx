"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import css from "./access.module.css";

/** The access screens, one link each (issue 11 item 5); add a screen with one line. */
const ACCESS_SCREENS = [
  { href: "/console/access/clients", label: "API clients" },
  { href: "/console/access/building-grants", label: "Building grants" },
  { href: "/console/access/providers", label: "Providers" },
];

export function AccessNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Access" className={css.subnav}>
      <ul>
        {ACCESS_SCREENS.map((screen) => (
          <li key={screen.href}>
            <Link href={screen.href} aria-current={pathname === screen.href || pathname.startsWith(`${screen.href}/`) ? "page" : undefined}>
              {screen.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
