"use client";
import { useQuery } from "@tanstack/react-query";
import { Badge, Can, type ColumnDef, type ConsoleOutputs, DataTable, errorMessage, Facts, formatDateTime, PageHeader, useTRPC } from "../../../_ui";
import { LOCK_LABELS, oneLine, SOURCE_LABELS } from "../format";
import { ActiveToggle, CorrectAddressForm } from "./building-actions";

type Detail = ConsoleOutputs["buildings"]["detail"];
type Audit = ConsoleOutputs["audit"]["search"][number];

const unitColumns: ColumnDef<Detail["units"][number]>[] = [
  { accessorKey: "name", header: "Name", enableSorting: true },
  { accessorKey: "external_system_id", header: "External id", cell: ({ getValue }) => <code>{getValue<string | null>() ?? "—"}</code> },
  { accessorKey: "pms_unit_id", header: "PMS unit id", cell: ({ getValue }) => getValue<string | null>() ?? "—" },
  {
    id: "address",
    header: "Address as sent",
    cell: ({ row }) => {
      const a = row.original.address;
      return a ? [a.line_one, a.line_two, a.city, a.state, a.zip].filter(Boolean).join(", ") : "—";
    },
  },
];

const historyColumns: ColumnDef<Detail["history"][number]>[] = [
  { accessorKey: "recorded_at", header: "When", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "source", header: "Source", cell: ({ getValue }) => SOURCE_LABELS[getValue<string>()] ?? getValue<string>() },
  { id: "address", header: "Address stored", cell: ({ row }) => oneLine(row.original.address) },
  { accessorKey: "actor", header: "By", cell: ({ getValue }) => getValue<string | null>() ?? "—" },
];

const disagreementColumns: ColumnDef<Detail["disagreements"][number]>[] = [
  { accessorKey: "recorded_at", header: "When", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "source", header: "From", cell: ({ getValue }) => (getValue<string>() === "units" ? "Unit load (derived)" : "Property refresh") },
  { id: "received", header: "Received (not applied)", cell: ({ row }) => oneLine(row.original.received) },
  { accessorKey: "stored_line_one", header: "Stored line then" },
];

const auditColumns: ColumnDef<Audit>[] = [
  { accessorKey: "at", header: "When", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "actor", header: "Who" },
  { accessorKey: "action", header: "Action", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { id: "change", header: "Change", cell: ({ row }) => <AuditChange before={row.original.before} after={row.original.after} /> },
];

function AuditChange({ before, after }: { before: unknown; after: unknown }) {
  const shown = (state: unknown) => {
    const s = state as { address?: Parameters<typeof oneLine>[0]; active?: boolean } | null;
    if (s?.address) return oneLine(s.address);
    if (s && typeof s.active === "boolean") return s.active ? "active" : "inactive";
    return JSON.stringify(state);
  };
  return (
    <>
      {shown(before)} → {shown(after)}
    </>
  );
}

/** A building: its stored address and lock, units, derivation history, disagreements and staff changes. */
export function BuildingDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.buildings.detail.queryOptions({ id }));
  const audit = useQuery(trpc.audit.search.queryOptions({ subjectType: "building", subjectId: String(id), limit: 50 }));
  if (detail.error)
    return (
      <p role="alert" className="error">
        {errorMessage(detail.error)}
      </p>
    );
  if (!detail.data) return <p aria-busy="true">Loading…</p>;
  const b = detail.data;
  return (
    <section>
      <PageHeader
        title={b.building_name}
        back={{ href: "/console/buildings", label: "Buildings" }}
        actions={
          <Can permission="buildings.activate">
            <ActiveToggle id={b.id} name={b.building_name} active={b.active} />
          </Can>
        }
      />
      <Facts
        items={[
          ["Owner", `${b.owner_name} (${b.owner_slug})`],
          ["External id", b.external_system_id ?? "—"],
          ["PMS", b.pms_type ? `${b.pms_type} ${b.pms_property_id}` : "—"],
          ["Type", b.type],
          ["Status", <Badge key="s" status={b.active ? "active" : "inactive"} />],
          ["Address as stored", oneLine(b.address)],
          [
            "Derivation",
            b.address_locked
              ? `Locked (${LOCK_LABELS[b.address_locked_reason ?? ""] ?? "locked"}) since ${formatDateTime(b.address_locked_at)}`
              : "Derived (not locked)",
          ],
        ]}
      />
      <Can permission="buildings.correct_address">
        <CorrectAddressForm id={b.id} address={b.address} />
      </Can>
      <h2>Disagreements recorded after the lock</h2>
      <p className="hint">Addresses that arrived after the lock. They are shown here and were not applied.</p>
      <DataTable label="Disagreements" columns={disagreementColumns} data={b.disagreements} empty="No disagreements recorded." />
      <h2>Units</h2>
      <DataTable label="Units" columns={unitColumns} data={b.units} empty="No units." getRowId={(row) => String(row.id)} />
      <h2>Derivation history</h2>
      <DataTable label="Derivation history" columns={historyColumns} data={b.history} empty="No address changes recorded." />
      <h2>Staff changes</h2>
      <DataTable label="Staff changes" columns={auditColumns} data={audit.data} isPending={audit.isPending} error={audit.error} empty="No staff changes." />
    </section>
  );
}
