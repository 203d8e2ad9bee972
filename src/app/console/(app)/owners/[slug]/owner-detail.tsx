"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge, Can, type ColumnDef, type ConsoleOutputs, DataTable, errorMessage, Facts, formatDateTime, PageHeader, useTRPC } from "../../../_ui";
import { money } from "../format";
import { OwnerSettingsForm } from "./owner-settings";
import { SigningSecret } from "./signing-secret";

type Detail = ConsoleOutputs["owners"]["detail"];

const buildingColumns: ColumnDef<Detail["roster"]["buildings"][number]>[] = [
  {
    accessorKey: "building_name",
    header: "Building",
    enableSorting: true,
    cell: ({ row }) => <Link href={`/console/buildings/${row.original.id}`}>{row.original.building_name}</Link>,
  },
  { accessorKey: "external_system_id", header: "External id", cell: ({ getValue }) => <code>{getValue<string | null>() ?? "—"}</code> },
  { accessorKey: "active", header: "Status", cell: ({ getValue }) => <Badge status={getValue<boolean>() ? "active" : "inactive"} /> },
];

const endpointColumns: ColumnDef<Detail["endpoints"][number]>[] = [
  { accessorKey: "name", header: "Name" },
  { accessorKey: "destination_url", header: "Destination", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  {
    accessorKey: "status",
    header: "Status",
    cell: ({ row }) => (
      <>
        <Badge status={row.original.status} />
        {row.original.suspension_reason && <p>{row.original.suspension_reason}</p>}
      </>
    ),
  },
  {
    id: "deliveries",
    header: "Deliveries",
    cell: ({ row }) => <Link href={`/console/deliveries?endpoint=${encodeURIComponent(row.original.id)}`}>Deliveries</Link>,
  },
];

const grantColumns: ColumnDef<Detail["client_grants"][number]>[] = [
  { accessorKey: "client_name", header: "Client", enableSorting: true },
  { accessorKey: "client_id", header: "Client id", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { accessorKey: "disabled", header: "Status", cell: ({ getValue }) => <Badge status={getValue<boolean>() ? "disabled" : "active"} /> },
];

const yesNo = (value: boolean) => (value ? "Yes" : "No");

/** One owner (decisions §12 Owners): settings, roster, what hangs off it, and its signing secret. */
export function OwnerDetail({ slug }: { slug: string }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.owners.detail.queryOptions({ slug }));
  if (detail.error)
    return (
      <section>
        <PageHeader title="Owner" back={{ href: "/console/owners", label: "Owners" }} />
        <p role="alert" className="error">
          {errorMessage(detail.error)}
        </p>
      </section>
    );
  if (!detail.data) return <p aria-busy="true">Loading…</p>;
  const o = detail.data;
  const live = o.merged_into === null;
  const ownerQuery = encodeURIComponent(o.owner_slug);
  return (
    <section>
      <PageHeader title={o.name} back={{ href: "/console/owners", label: "Owners" }}>
        {o.merged_into && (
          <p role="note">
            Merged into <Link href={`/console/owners/${encodeURIComponent(o.merged_into.owner_slug)}`}>{o.merged_into.name}</Link> (
            <code>{o.merged_into.owner_slug}</code>): its slug and external org id resolve to the survivor.
          </p>
        )}
      </PageHeader>
      <Facts
        items={[
          ["Slug", <code key="slug">{o.owner_slug}</code>],
          ["External org id", <code key="ext">{o.external_org_id}</code>],
          [
            "Kind",
            o.managed ? (
              <Badge key="k" tone="info">
                Managed by the service
              </Badge>
            ) : (
              <Badge key="k" tone="neutral">
                Partner-created
              </Badge>
            ),
          ],
          ["Purchase flow", o.purchase_flow_enabled ? "Enabled" : "Off"],
          ["Coverage ceiling", money(o.max_coverage_amount_cents)],
          ["Guarantor coverage capable", yesNo(o.guarantor_coverage_capable)],
          ["Embedded frame ancestors", o.embedded_frame_ancestors.length ? o.embedded_frame_ancestors.join(" ") : "None (operator frame origins only)"],
          ["Created", formatDateTime(o.created_at)],
          [
            "Merged from",
            o.merged_from.length
              ? o.merged_from.map((m) => (
                  <span key={m.owner_slug} className="merged-from">
                    <Link href={`/console/owners/${encodeURIComponent(m.owner_slug)}`}>{m.name}</Link> ({formatDateTime(m.merged_at)})
                  </span>
                ))
              : "—",
          ],
        ]}
      />
      {live && (
        <Can permission="owners.manage">
          <OwnerSettingsForm owner={o} />
        </Can>
      )}
      {live && (
        <Can permission="secrets.manage">
          <SigningSecret slug={o.owner_slug} previousValidUntil={o.signing_secret.previous_valid_until} />
        </Can>
      )}
      <h2>Roster</h2>
      <dl className="stats">
        <div className="stat">
          <dt>Buildings</dt>
          <dd>
            <strong>{o.roster.buildings_active}</strong>
            <small>active · {o.roster.buildings_inactive} inactive</small>
          </dd>
        </div>
        <div className="stat">
          <dt>Units</dt>
          <dd>
            <strong>{o.roster.units}</strong>
          </dd>
        </div>
        <div className="stat">
          <dt>Bank accounts</dt>
          <dd>
            <strong>{o.roster.bank_accounts}</strong>
          </dd>
        </div>
        <div className="stat">
          <dt>Prospects</dt>
          <dd>
            <strong>{o.prospects}</strong>
            <Link href={`/console/prospects?owner=${ownerQuery}`}>Search them</Link>
          </dd>
        </div>
        <div className="stat">
          <dt>Policies</dt>
          <dd>
            <strong>{o.policies}</strong>
          </dd>
        </div>
      </dl>
      <DataTable label="Buildings" columns={buildingColumns} data={o.roster.buildings} empty="No buildings." getRowId={(row) => String(row.id)} />
      {o.roster.buildings_active + o.roster.buildings_inactive > o.roster.buildings.length && (
        <p className="hint">
          <Link href={`/console/buildings?owner=${ownerQuery}`}>All of this owner's buildings</Link>
        </p>
      )}
      <h2>Webhook endpoints</h2>
      <DataTable label="Webhook endpoints" columns={endpointColumns} data={o.endpoints} empty="No webhook endpoints." getRowId={(row) => row.id} />
      <h2>Clients with access</h2>
      <DataTable
        label="Clients with access"
        columns={grantColumns}
        data={o.client_grants}
        empty="No client is granted this owner."
        getRowId={(row) => row.client_id}
      />
      <p className="hint">
        <Link href={`/console/audit?subject_type=owner&subject_id=${ownerQuery}`}>Staff changes to this owner</Link>
      </p>
    </section>
  );
}
