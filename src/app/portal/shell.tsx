import Link from "next/link";
import type { ReactNode } from "react";
import { PORTAL_SIGN_OUT_PATH, type PortalSession } from "@/features/portal/session";
import styles from "./portal.module.css";

/** The frame of every portal page: who the portal is for, one navigation link, the page's notice. */
export function PortalShell({ session, notice, children }: { session: PortalSession; notice?: string; children: ReactNode }) {
  return (
    <div className={styles.shell}>
      <header className={styles.header}>
        <span className={styles.brand}>Webhook portal</span>
        <span className={styles.owner}>{session.owner.name}</span>
        <nav aria-label="Portal" className={styles.nav}>
          <Link href="/portal">Endpoints</Link>
        </nav>
        {/* A plain form to the door's sign-out: ends the session on the server (docs/decisions.md, "Second security review"). */}
        <form method="post" action={PORTAL_SIGN_OUT_PATH} className={styles.signOut}>
          <button type="submit">Sign out</button>
        </form>
      </header>
      <main>
        {notice ? (
          <p role="status" className={styles.notice}>
            {notice}
          </p>
        ) : null}
        {children}
      </main>
    </div>
  );
}

/** The page of a request without a live session (no cookie, expired, client disabled, grant revoked). */
export function SessionEnded() {
  return (
    <div className={styles.shell}>
      <main>
        <h1>Portal session ended</h1>
        <p>Your portal session has ended or this link is not valid. Open a new portal link from your platform.</p>
      </main>
    </div>
  );
}

const TONE: Record<string, string> = {
  active: styles.good,
  delivered: styles.good,
  failed: styles.bad,
  suspended: styles.bad,
  disabled: styles.warn,
  retrying: styles.warn,
  rate_limited: styles.warn,
};

export function Status({ value }: { value: string }) {
  return <span className={`${styles.badge} ${TONE[value] ?? ""}`}>{value.replaceAll("_", " ")}</span>;
}

export function formatTime(value: string | Date | null): string {
  if (!value) return "—";
  return new Date(value).toISOString().replace("T", " ").slice(0, 19).concat(" UTC");
}

export function formatRate(rate: number | null | undefined): string {
  return rate === null || rate === undefined ? "no attempts" : `${(rate * 100).toFixed(rate === 1 || rate === 0 ? 0 : 1)} %`;
}
