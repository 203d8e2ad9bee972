"use client";
import { useQuery } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { Badge, Can, type ColumnDef, type ConsoleOutputs, DataTable, errorMessage, Facts, formatDateTime, PageHeader, useTRPC } from "../../../../_ui";
import { AccessNav } from "../../access-nav";
import { SecretOnce } from "../../secret-once";
import { scopeList } from "../clients-screen";
import { ClientGrants } from "./client-grants";
import { ClientSettings, ClientStatus, RotateSecret } from "./client-settings";

type Audit = ConsoleOutputs["audit"]["search"][number];

/** What changed, in words: never a secret (the audit log holds none). */
function change(row: Audit): string {
  const before = (row.before ?? {}) as Record<string, unknown>;
  const after = (row.after ?? {}) as Record<string, unknown>;
  if (row.action === "clients.grant_owner") return `granted ${after.owner_slug}`;
  if (row.action === "clients.revoke_owner") return `revoked ${before.owner_slug}`;
  if (row.action === "clients.rotate_secret") return `secret version ${before.secret_version} → ${after.secret_version}`;
  if (row.action === "clients.create")
    return `created: ${after.gateway} gateway, ${(after.scopes as string[] | undefined)?.length ?? 0} scopes, signature ${after.require_signature ? "required" : "optional"}`;
  const parts: string[] = [];
  if (JSON.stringify(before.scopes) !== JSON.stringify(after.scopes))
    parts.push(`scopes ${(before.scopes as string[]).join(", ")} → ${(after.scopes as string[]).join(", ")}`);
  if (before.require_signature !== after.require_signature)
    parts.push(`signature ${before.require_signature ? "required" : "optional"} → ${after.require_signature ? "required" : "optional"}`);
  return parts.join("; ") || JSON.stringify(after);
}

const auditColumns: ColumnDef<Audit>[] = [
  { accessorKey: "at", header: "When", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "actor", header: "Who" },
  { accessorKey: "action", header: "Action", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { id: "change", header: "Change", cell: ({ row }) => change(row.original) },
];

/** One API client: its settings, owner grants and changes (docs/decisions.md, "Console: access management, part A"). */
export function ClientDetail({ clientId }: { clientId: string }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.accessClients.detail.queryOptions({ client_id: clientId }));
  const audit = useQuery(trpc.audit.search.queryOptions({ subjectType: "client", subjectId: clientId, limit: 50 }));
  const [newSecret, setNewSecret] = useState<string | null>(null);
  if (detail.error)
    return (
      <p role="alert" className="error">
        {errorMessage(detail.error)}
      </p>
    );
  if (!detail.data) return <p aria-busy="true">Loading…</p>;
  const c = detail.data;
  const enabled = !c.disabled_at;
  return (
    <section>
      <PageHeader
        title={c.name}
        back={{ href: "/console/access/clients", label: "API clients" }}
        actions={
          <>
            {enabled && (
              <Can permission="secrets.manage">
                <RotateSecret clientId={c.client_id} name={c.name} onRotated={setNewSecret} />
              </Can>
            )}
            <Can permission="access.manage">
              <ClientStatus clientId={c.client_id} name={c.name} disabled={!enabled} />
            </Can>
          </>
        }
      />
      <AccessNav />
      {newSecret && <SecretOnce clientId={c.client_id} secret={newSecret} onDone={() => setNewSecret(null)} />}
      <Facts
        items={[
          ["Client id", <code key="id">{c.client_id}</code>],
          ["Gateway", c.gateway === "partner" ? "Partner API" : "Event ingestion"],
          ...(c.gateway === "ingestion"
            ? [
                ["Partner client", c.partner_client_id ? <code key="partner">{c.partner_client_id}</code> : "none (only its own sources)"] satisfies [
                  string,
                  ReactNode,
                ],
              ]
            : []),
          ["Provider", c.provider_code ?? "—"],
          ["Scopes", scopeList(c.scopes)],
          ["Request signatures", c.require_signature ? "required" : "optional"],
          ["Created", formatDateTime(c.created_at)],
          ["Secret rotated", c.secret_rotated_at ? formatDateTime(c.secret_rotated_at) : "never"],
          ["Status", <Badge key="s" status={enabled ? "active" : "disabled"} />],
        ]}
      />
      {enabled && (
        <Can permission="access.manage">
          <ClientSettings key={`${c.scopes.join(" ")}|${c.require_signature}`} client={c} />
        </Can>
      )}
      <ClientGrants client={c} />
      <section aria-labelledby="client-changes" style={{ marginTop: "1.75rem" }}>
        <h2 id="client-changes">Changes</h2>
        <DataTable
          label="Changes"
          columns={auditColumns}
          data={audit.data}
          isPending={audit.isPending}
          error={audit.error}
          empty="No changes recorded."
          getRowId={(row) => String(row.id)}
        />
      </section>
    </section>
  );
}
