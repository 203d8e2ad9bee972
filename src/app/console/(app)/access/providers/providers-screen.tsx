"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Can, type ColumnDef, type ConsoleOutputs, DataTable, FilterBar, formatDateTime, TextField, useCan, useTRPC, useUrlFilters } from "../../../_ui";
import css from "../access.module.css";
import { AddCoverage, CreateProvider, RemoveCoverage } from "./coverage-forms";

type Row = ConsoleOutputs["providers"]["search"][number];
const FILTERS = { client: "" };

function Coverage({ provider, manage }: { provider: Row; manage: boolean }) {
  if (provider.covers_granted_owners) return <span className="muted">every owner granted to the client</span>;
  return (
    <ul className={css.chips} aria-label={`Coverage of ${provider.code}`}>
      {provider.owners.map((owner) => (
        <li key={`o:${owner.owner_slug}`} className={css.chip}>
          owner <code>{owner.owner_slug}</code>
          {manage && <RemoveCoverage provider={provider} owner={owner.owner_slug} />}
        </li>
      ))}
      {provider.buildings.map((building) => (
        <li key={`b:${building.id}`} className={css.chip}>
          <Link href={`/console/buildings/${building.id}`}>{building.name}</Link> <code>{`${building.owner_slug}:${building.external_id}`}</code>
          {manage && <RemoveCoverage provider={provider} building={{ owner_slug: building.owner_slug, external_id: building.external_id }} />}
        </li>
      ))}
    </ul>
  );
}

/** Provider subscriptions with their client and coverage (spec Delivery mechanics 6; docs/decisions.md, "Console: access management, part A"). */
export function ProvidersScreen() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const manage = useCan("access.manage");
  const list = useQuery(trpc.providers.search.queryOptions({ client_id: filters.values.client || undefined }));
  const columns: ColumnDef<Row>[] = [
    { accessorKey: "code", header: "Code", enableSorting: true, cell: ({ getValue }) => <code>{getValue<string>()}</code> },
    {
      accessorKey: "client_id",
      header: "Client",
      cell: ({ row }) => (
        <Link href={`/console/access/clients/${encodeURIComponent(row.original.client_id)}`}>{row.original.client_name ?? row.original.client_id}</Link>
      ),
    },
    { id: "coverage", header: "Coverage", cell: ({ row }) => <Coverage provider={row.original} manage={manage} /> },
    { accessorKey: "created_at", header: "Created", enableSorting: true, cell: ({ getValue }) => formatDateTime(getValue<string>()) },
    ...(manage ? [{ id: "add", header: "", cell: ({ row }: { row: { original: Row } }) => <AddCoverage provider={row.original} /> }] : []),
  ];
  return (
    <>
      <Can permission="access.manage">
        <p>
          <CreateProvider />
        </p>
      </Can>
      <FilterBar key={filters.formKey} label="Search providers" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Client id" name="client" defaultValue={filters.values.client} maxLength={100} />
      </FilterBar>
      <DataTable
        label="Providers"
        columns={columns}
        data={list.data}
        isPending={list.isPending}
        error={list.error}
        empty="No providers match."
        getRowId={(row) => row.code}
      />
    </>
  );
}
