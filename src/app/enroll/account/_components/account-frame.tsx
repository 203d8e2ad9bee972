import type { ReactNode } from "react";
import styles from "../../_components/enroll.module.css";
import { signOutAction } from "../actions";
import local from "./account.module.css";

type Props = {
  /** `data-account-page` (a marker for tests and people's tools, as the enrollment steps' `data-step`). */
  page: "sign-in" | "link" | "policies" | "pay" | "card";
  email?: string;
  /** A page that takes a card through Stripe says so, as the enrollment pay step does (decisions §18). */
  payment?: { processor: "stripe"; intentId: string };
  children: ReactNode;
};

/** Every account page: the enrollment pages' look (decisions §10, §19), who is signed in, sign-out. */
export function AccountFrame({ page, email, payment, children }: Props) {
  return (
    <div className={styles.page}>
      <header className={`${styles.header} ${local.header}`}>
        <span className={styles.brand}>Your deposit coverage</span>
        {email ? (
          <form action={signOutAction} className={local.signOut}>
            <span className={styles.tagline}>Signed in as {email}</span>
            <button type="submit" className={styles.secondary}>
              Sign out
            </button>
          </form>
        ) : (
          <span className={styles.tagline}>Your account</span>
        )}
      </header>
      <main className={`${styles.main} ${local.main}`} data-account-page={page} data-processor={payment?.processor} data-payment-intent={payment?.intentId}>
        {children}
      </main>
    </div>
  );
}
