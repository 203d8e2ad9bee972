"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge, Can, type ConsoleOutputs, errorMessage, Facts, formatDateTime, PageHeader, useTRPC } from "../../../_ui";
import { day, money, PRODUCT_LABELS } from "../format";
import { BillingPanel } from "./billing-panel";
import { DisputeFlag, PaymentsPanel } from "./payments-panel";
import styles from "./policy.module.css";
import { CancelPolicy, ReviseForm } from "./policy-actions";
import { PolicyDeliveries } from "./policy-deliveries";
import { Documents, Revisions, StatusHistory } from "./policy-history";

type Policy = ConsoleOutputs["policies"]["detail"];

/** A canceled or expired policy is closed: neither revised nor canceled (409 on the server too). */
const OPEN = new Set(["pending", "upcoming", "active"]);

function Summary({ policy }: { policy: Policy }) {
  return (
    <Facts
      items={[
        ["Status", <Badge key="s" status={policy.status} />],
        ["Product", `${PRODUCT_LABELS[policy.product_type] ?? policy.product_type}${policy.product_version ? ` (version ${policy.product_version})` : ""}`],
        ["Coverage", money(policy.coverage_amount_cents)],
        ["Coverage period", `${day(policy.coverage_start_date)} – ${day(policy.coverage_end_date)}`],
        ["Premium", `${money(policy.premium_cents)} ${policy.cadence === "monthly" ? "per month" : "paid upfront"}`],
        ["Renter", policy.renter ? `${policy.renter}${policy.renter_email && policy.renter !== policy.renter_email ? ` <${policy.renter_email}>` : ""}` : "—"],
        [
          "Owner",
          <Link key="o" href={`/console/policies?owner=${encodeURIComponent(policy.owner_slug)}`}>
            {policy.owner_name} ({policy.owner_slug})
          </Link>,
        ],
        [
          "Building",
          `${policy.building_name}, ${policy.address.line_one}, ${policy.address.city}, ${policy.address.state} ${policy.address.zip}${policy.address_locked ? " (address locked)" : ""}`,
        ],
        ["Unit", policy.unit_external_id ? `${policy.unit_name} (${policy.unit_external_id})` : policy.unit_name],
        [
          "Partner prospect id",
          policy.source_prospect_id ? (
            <Link key="p" href={`/console/prospects?source_prospect_id=${encodeURIComponent(policy.source_prospect_id)}`}>
              {policy.source_prospect_id}
            </Link>
          ) : (
            "—"
          ),
        ],
        ["Application", policy.application_id ?? "—"],
        [
          "PMS",
          policy.pms.type
            ? `${policy.pms.type} · property ${policy.pms.property_id ?? "—"} · unit ${policy.pms.unit_id ?? "—"} · resident ${policy.pms.resident_id ?? "—"}`
            : "—",
        ],
        ["Issued", formatDateTime(policy.issued_at)],
      ]}
    />
  );
}

/** Revise and cancel, for operators (`policies.manage`), while the policy is open. */
function Actions({ policy }: { policy: Policy }) {
  if (!OPEN.has(policy.status))
    return (
      <Can permission="policies.manage">
        <p className="muted">This policy is {policy.status}: it can no longer be revised or canceled.</p>
      </Can>
    );
  return (
    <Can permission="policies.manage">
      <div className={styles.actions}>
        <section className={styles.panel}>
          <ReviseForm policy={policy} />
        </section>
        <section className={styles.panel}>
          <CancelPolicy policy={policy} />
        </section>
      </div>
    </Can>
  );
}

/**
 * `admin_policy_url` (decisions §11): the policy, its actions, then one section per component —
 * status history, revisions, documents, billing, payments, deliveries. A new section is one more line below.
 */
export function PolicyDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const { data: policy, error } = useQuery(trpc.policies.detail.queryOptions({ id }));
  const back = { href: "/console/policies", label: "All policies" };
  if (error)
    return (
      <section>
        <PageHeader title="Policy" back={back} />
        <p role="alert">{errorMessage(error)}</p>
      </section>
    );
  if (!policy) return <p aria-busy="true">Loading…</p>;
  return (
    <section>
      <PageHeader title={`Policy ${policy.policy_number}`} back={back} />
      <DisputeFlag policyId={policy.id} />
      <Summary policy={policy} />
      <Actions policy={policy} />
      <StatusHistory policy={policy} />
      <Revisions policy={policy} />
      <Documents policy={policy} />
      <BillingPanel policyId={policy.id} />
      <PaymentsPanel policyId={policy.id} />
      <Can permission="deliveries.read">
        <PolicyDeliveries policyNumber={policy.policy_number} />
      </Can>
    </section>
  );
}
