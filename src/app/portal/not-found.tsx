import Link from "next/link";
import styles from "./portal.module.css";

export default function PortalNotFound() {
  return (
    <div className={styles.shell}>
      <main>
        <h1>Not found</h1>
        <p>There is nothing here for this portal session.</p>
        <p>
          <Link href="/portal">Back to your endpoints</Link>
        </p>
      </main>
    </div>
  );
}
