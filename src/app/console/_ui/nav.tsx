"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { Permission } from "@/features/console/permissions";
import { useCan } from "./permissions";
import styles from "./ui.module.css";

/** The console's sections, each shown only to a role that may read it. Add a screen with one line. */
export const NAV_ITEMS: { href: string; label: string; permission: Permission }[] = [
  { href: "/console", label: "Overview", permission: "overview.read" },
  { href: "/console/deliveries", label: "Deliveries", permission: "deliveries.read" },
  { href: "/console/owners", label: "Owners", permission: "owners.read" },
  { href: "/console/buildings", label: "Buildings", permission: "buildings.read" },
  { href: "/console/prospects", label: "Prospects", permission: "prospects.read" },
  { href: "/console/policies", label: "Policies", permission: "policies.read" },
  { href: "/console/delinquencies", label: "Delinquencies", permission: "policies.read" },
  { href: "/console/payments", label: "Unresolved payments", permission: "policies.read" },
  { href: "/console/messages", label: "Messages", permission: "messages.read" },
  { href: "/console/ingestion", label: "Ingested events", permission: "ingestion.read" },
  { href: "/console/audit", label: "Audit log", permission: "audit.read" },
  { href: "/console/access", label: "Access", permission: "access.read" },
];

function NavItem({ href, label, permission }: (typeof NAV_ITEMS)[number]) {
  const pathname = usePathname();
  const allowed = useCan(permission);
  if (!allowed) return null;
  const current = href === "/console" ? pathname === href : pathname === href || pathname.startsWith(`${href}/`);
  return (
    <li>
      <Link href={href} aria-current={current ? "page" : undefined} className={styles.navLink}>
        {label}
      </Link>
    </li>
  );
}

export function ConsoleNav() {
  return (
    <nav aria-label="Console" className={styles.nav}>
      <ul>
        {NAV_ITEMS.map((item) => (
          <NavItem key={item.href} {...item} />
        ))}
      </ul>
    </nav>
  );
}
