"use client";
import { useEffect, useState } from "react";
import { consoleClient } from "@/features/console/trpc-client";

type Owner = Awaited<ReturnType<typeof consoleClient.owners.list.query>>[number];

const money = (cents: number | null) => (cents === null ? "—" : `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`);

export function OwnersTable() {
  const [owners, setOwners] = useState<Owner[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    consoleClient.owners.list
      .query()
      .then(setOwners)
      .catch((cause: Error) => setError(cause.message));
  }, []);
  if (error) return <p role="alert">Could not load owners: {error}</p>;
  if (!owners) return <p aria-busy="true">Loading…</p>;
  if (owners.length === 0) return <p>No property owners yet.</p>;
  return (
    <table>
      <thead>
        <tr>
          <th>Name</th>
          <th>Slug</th>
          <th>External org id</th>
          <th>Kind</th>
          <th>Purchase flow</th>
          <th>Coverage ceiling</th>
          <th>Created</th>
        </tr>
      </thead>
      <tbody>
        {owners.map((owner) => (
          <tr key={owner.owner_slug}>
            <td>{owner.name}</td>
            <td>
              <code>{owner.owner_slug}</code>
            </td>
            <td>{owner.external_org_id}</td>
            <td>{owner.managed ? "Managed by the service" : "Partner-created"}</td>
            <td>{owner.purchase_flow_enabled ? "Enabled" : "Off"}</td>
            <td>{money(owner.max_coverage_amount_cents)}</td>
            <td>{new Date(owner.created_at).toLocaleDateString("en-US")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
