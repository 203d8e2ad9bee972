import type { ReactNode } from "react";
import type { FlowContext, LeaseSummary, StepName, TerminalState } from "@/features/enrollment/flow/contract";
import styles from "./enroll.module.css";
import { formatDate, formatUsd } from "./format";

const PROGRESS: { label: string; steps: StepName[] }[] = [
  { label: "Your details", steps: ["details"] },
  { label: "Your options", steps: ["quote", "choose"] },
  { label: "Payment", steps: ["pay"] },
  { label: "Done", steps: ["result"] },
];

type Props = {
  view: FlowContext & { step: StepName };
  /** The result's terminal state (`data-enrollment-state`). */
  state?: TerminalState;
  /** The pay step through Stripe (decisions §18 markers): `data-processor` and `data-payment-intent`. */
  payment?: { processor: "stripe"; intentId: string };
  children: ReactNode;
};

/**
 * Every step's page: `<main data-step>` (decisions §10 Markers), the lease it is about, and where the
 * renter is in the flow.
 */
export function StepFrame({ view, state, payment, children }: Props) {
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <span className={styles.brand}>{view.lease.ownerName}</span>
        <span className={styles.tagline}>{view.flow === "embedded" ? "Deposit alternatives" : "Deposit alternatives for your lease"}</span>
      </header>
      <main
        className={styles.main}
        data-step={view.step}
        data-enrollment-state={state}
        data-processor={payment?.processor}
        data-payment-intent={payment?.intentId}
      >
        {view.step === "result" ? null : <Progress step={view.step} />}
        <div className={styles.columns}>
          <div className={styles.content}>{children}</div>
          <Lease lease={view.lease} />
        </div>
      </main>
    </div>
  );
}

function Progress({ step }: { step: StepName }) {
  const current = PROGRESS.findIndex((p) => p.steps.includes(step));
  return (
    <nav aria-label="Progress" className={styles.progress}>
      <p className={styles.progressText}>
        Step {current + 1} of {PROGRESS.length}
      </p>
      <ol>
        {PROGRESS.map((p, i) => (
          <li key={p.label} aria-current={i === current ? "step" : undefined} data-done={i < current ? "true" : undefined}>
            {p.label}
          </li>
        ))}
      </ol>
    </nav>
  );
}

function Lease({ lease }: { lease: LeaseSummary }) {
  const dates = lease.leaseStartDate ? `${formatDate(lease.leaseStartDate)}${lease.leaseEndDate ? ` – ${formatDate(lease.leaseEndDate)}` : ""}` : null;
  return (
    <section aria-labelledby="lease-title" className={styles.lease}>
      <h2 id="lease-title" className={styles.leaseTitle}>
        Your lease
      </h2>
      <dl>
        <div>
          <dt>Property owner</dt>
          <dd>{lease.ownerName}</dd>
        </div>
        {lease.address ? (
          <div>
            <dt>Address</dt>
            <dd>{lease.address}</dd>
          </div>
        ) : null}
        {lease.unitLabel ? (
          <div>
            <dt>Unit</dt>
            <dd>{lease.unitLabel}</dd>
          </div>
        ) : null}
        {dates ? (
          <div>
            <dt>Lease term</dt>
            <dd>{dates}</dd>
          </div>
        ) : null}
        {lease.monthlyRentCents !== null ? (
          <div>
            <dt>Monthly rent</dt>
            <dd>{formatUsd(lease.monthlyRentCents)}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}

/** Staging only: the magic values that drive the simulated outcomes (decisions §10). */
export function StagingHint({ children }: { children: ReactNode }) {
  return (
    <aside aria-label="Test mode" className={styles.testHint}>
      <strong>Test mode.</strong> {children}
    </aside>
  );
}
