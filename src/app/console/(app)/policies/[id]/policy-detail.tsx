"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import { consoleClient } from "@/features/console/trpc-client";
import { day, money, PRODUCT_LABELS } from "../format";

type Detail = Awaited<ReturnType<typeof consoleClient.policies.detail.query>>;

export function PolicyDetail({ id }: { id: number }) {
  const [policy, setPolicy] = useState<Detail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    consoleClient.policies.detail
      .query({ id })
      .then(setPolicy)
      .catch((cause: Error) => setError(cause.message));
  }, [id]);
  if (error)
    return (
      <section>
        <h1>Policy</h1>
        <p role="alert">{error}</p>
        <Link href="/console/policies">All policies</Link>
      </section>
    );
  if (!policy) return <p aria-busy="true">Loading…</p>;
  const rows: [string, React.ReactNode][] = [
    ["Status", policy.status],
    ["Product", `${PRODUCT_LABELS[policy.product_type] ?? policy.product_type}${policy.product_version ? ` (version ${policy.product_version})` : ""}`],
    ["Coverage", money(policy.coverage_amount_cents)],
    ["Coverage period", `${day(policy.coverage_start_date)} – ${day(policy.coverage_end_date)}`],
    ["Premium", `${money(policy.premium_cents)} ${policy.cadence === "monthly" ? "per month" : "paid upfront"}`],
    ["Renter", policy.renter ? `${policy.renter}${policy.renter_email && policy.renter !== policy.renter_email ? ` <${policy.renter_email}>` : ""}` : "—"],
    ["Owner", `${policy.owner_name} (${policy.owner_slug})`],
    [
      "Building",
      `${policy.building_name}, ${policy.address.line_one}, ${policy.address.city}, ${policy.address.state} ${policy.address.zip}${policy.address_locked ? " (address locked)" : ""}`,
    ],
    ["Unit", policy.unit_name],
    ["Partner prospect id", policy.source_prospect_id ?? "—"],
    ["Application", policy.application_id ?? "—"],
    [
      "PMS",
      policy.pms.type
        ? `${policy.pms.type} · property ${policy.pms.property_id ?? "—"} · unit ${policy.pms.unit_id ?? "—"} · resident ${policy.pms.resident_id ?? "—"}`
        : "—",
    ],
    ["Issued", new Date(policy.issued_at).toLocaleString("en-US")],
  ];
  return (
    <section>
      <p>
        <Link href="/console/policies">All policies</Link>
      </p>
      <h1>Policy {policy.policy_number}</h1>
      <dl className="facts">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h2>Documents</h2>
      {policy.documents.length === 0 ? (
        <p>The document archive is being built.</p>
      ) : (
        <ul>
          {policy.documents.map((doc, i) => (
            <li key={doc.url}>
              <a href={doc.url}>{doc.filename}</a> · {new Date(doc.created_at).toLocaleString("en-US")}
              {i === 0 ? " (current)" : ""}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
