"use client";
import { useEffect, useState } from "react";
import { consoleClient } from "@/features/console/trpc-client";

type Row = Awaited<ReturnType<typeof consoleClient.ingestion.events.query>>[number];
type Status = Row["status"] | "all";

export function IngestionTable() {
  const [status, setStatus] = useState<Status>("rejected");
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setRows(null);
    consoleClient.ingestion.events
      .query({ status: status === "all" ? undefined : status })
      .then(setRows)
      .catch((cause: Error) => setError(cause.message));
  }, [status]);
  return (
    <>
      <label>
        Status{" "}
        <select value={status} onChange={(event) => setStatus(event.target.value as Status)}>
          {["rejected", "skipped", "applied", "pending", "all"].map((value) => (
            <option key={value}>{value}</option>
          ))}
        </select>
      </label>
      {error && <p role="alert">Could not load events: {error}</p>}
      {!rows && !error && <p aria-busy="true">Loading…</p>}
      {rows?.length === 0 && <p>No {status === "all" ? "" : status} events.</p>}
      {rows && rows.length > 0 && (
        <table>
          <thead>
            <tr>
              <th>Received</th>
              <th>Status</th>
              <th>Owner</th>
              <th>Prospect</th>
              <th>Client</th>
              <th>Reasons</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td>{new Date(row.received_at).toLocaleString("en-US")}</td>
                <td>{row.status}</td>
                <td>{row.owner_slug ?? "—"}</td>
                <td>{row.source_prospect_id ?? "—"}</td>
                <td>
                  <code>{row.client_id}</code>
                </td>
                <td>
                  {row.reasons
                    ? Object.entries(row.reasons)
                        .map(([field, messages]) => `${field}: ${messages.join(", ")}`)
                        .join("; ")
                    : "—"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
