import Link from "next/link";
import styles from "../_components/enroll.module.css";
import { AccountFrame } from "./_components/account-frame";
import { ACCOUNT_PATH } from "./_components/session";

/** A policy that is not the signed-in renter's (or none) answers 404 with this page (decisions §19). */
export default function AccountNotFound() {
  return (
    <AccountFrame page="policies">
      <h1 className={styles.title}>Page not found</h1>
      <p className={styles.lead}>
        There is nothing here for your account. <Link href={ACCOUNT_PATH}>Back to your policies</Link>
      </p>
    </AccountFrame>
  );
}
