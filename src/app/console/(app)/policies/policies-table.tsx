"use client";
import Link from "next/link";
import { useEffect, useState } from "react";
import { consoleClient } from "@/features/console/trpc-client";
import { day, money, PRODUCT_LABELS } from "./format";

type Row = Awaited<ReturnType<typeof consoleClient.policies.search.query>>[number];
const STATUSES = ["all", "active", "upcoming", "pending", "expired", "canceled"] as const;

/** Search by policy number, renter or prospect id; newest first. */
export function PoliciesTable() {
  const [query, setQuery] = useState("");
  const [submitted, setSubmitted] = useState("");
  const [status, setStatus] = useState<(typeof STATUSES)[number]>("all");
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setRows(null);
    setError(null);
    consoleClient.policies.search
      .query({ query: submitted || undefined, status: status === "all" ? undefined : status })
      .then(setRows)
      .catch((cause: Error) => setError(cause.message));
  }, [submitted, status]);
  return (
    <>
      <search>
        <form
          className="filters"
          onSubmit={(event) => {
            event.preventDefault();
            setSubmitted(query.trim());
          }}
        >
          <label>
            Policy number, renter or prospect id <input type="search" value={query} onChange={(event) => setQuery(event.target.value)} maxLength={200} />
          </label>
          <label>
            Status{" "}
            <select value={status} onChange={(event) => setStatus(event.target.value as (typeof STATUSES)[number])}>
              {STATUSES.map((value) => (
                <option key={value}>{value}</option>
              ))}
            </select>
          </label>
          <button type="submit">Search</button>
        </form>
      </search>
      {error && <p role="alert">Could not load policies: {error}</p>}
      {!rows && !error && <p aria-busy="true">Loading…</p>}
      {rows?.length === 0 && <p>No policies match.</p>}
      {rows && rows.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>Policy</th>
              <th>Status</th>
              <th>Product</th>
              <th>Renter</th>
              <th>Owner</th>
              <th>Building · unit</th>
              <th>Coverage</th>
              <th>Period</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td>
                  <Link href={`/console/policies/${row.id}`}>{row.policy_number}</Link>
                </td>
                <td>{row.status}</td>
                <td>{PRODUCT_LABELS[row.product_type] ?? row.product_type}</td>
                <td>{row.renter ?? "—"}</td>
                <td>{row.owner_name}</td>
                <td>
                  {row.building_name} · {row.unit_name}
                </td>
                <td>{money(row.coverage_amount_cents)}</td>
                <td>
                  {day(row.coverage_start_date)} – {day(row.coverage_end_date)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
