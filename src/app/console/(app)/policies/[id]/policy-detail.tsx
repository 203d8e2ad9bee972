"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge, errorMessage, Facts, formatDateTime, PageHeader, useTRPC } from "../../../_ui";
import { day, money, PRODUCT_LABELS } from "../format";
import { BillingPanel } from "./billing-panel";

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
      <Facts
        items={[
          ["Status", <Badge key="s" status={policy.status} />],
          ["Product", `${PRODUCT_LABELS[policy.product_type] ?? policy.product_type}${policy.product_version ? ` (version ${policy.product_version})` : ""}`],
          ["Coverage", money(policy.coverage_amount_cents)],
          ["Coverage period", `${day(policy.coverage_start_date)} – ${day(policy.coverage_end_date)}`],
          ["Premium", `${money(policy.premium_cents)} ${policy.cadence === "monthly" ? "per month" : "paid upfront"}`],
          [
            "Renter",
            policy.renter ? `${policy.renter}${policy.renter_email && policy.renter !== policy.renter_email ? ` <${policy.renter_email}>` : ""}` : "—",
          ],
          ["Owner", `${policy.owner_name} (${policy.owner_slug})`],
          [
            "Building",
            `${policy.building_name}, ${policy.address.line_one}, ${policy.address.city}, ${policy.address.state} ${policy.address.zip}${policy.address_locked ? " (address locked)" : ""}`,
          ],
          ["Unit", policy.unit_name],
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
      <h2>Documents</h2>
      {policy.documents.length === 0 ? (
        <p>The document archive is being built.</p>
      ) : (
        <ul>
          {policy.documents.map((doc, i) => (
            <li key={doc.url}>
              <a href={doc.url}>{doc.filename}</a> · {formatDateTime(doc.created_at)}
              {i === 0 ? " (current)" : ""}
            </li>
          ))}
        </ul>
      )}
      <BillingPanel policyId={policy.id} />
    </section>
  );
}
