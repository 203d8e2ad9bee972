"use client";
import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import {
  Button,
  type ColumnDef,
  type ConsoleOutputs,
  DataTable,
  Dialog,
  FilterBar,
  formatDateTime,
  infiniteTableProps,
  JsonView,
  nextIdBelow,
  TextField,
  useTRPC,
  useUrlFilters,
} from "../../_ui";

type Row = ConsoleOutputs["audit"]["search"][number];

const PAGE = 50;
const FILTERS = { action: "", subject_type: "", subject_id: "" };

/** Where a subject of the log is shown in the console, when it has a page. */
const SUBJECT_PAGES: Record<string, (id: string) => string> = {
  policy: (id) => `/console/policies/${encodeURIComponent(id)}`,
  prospect: (id) => `/console/prospects/${encodeURIComponent(id)}`,
  webhook_delivery: (id) => `/console/deliveries/${encodeURIComponent(id)}`,
  building: (id) => `/console/buildings/${encodeURIComponent(id)}`,
  owner: (id) => `/console/owners/${encodeURIComponent(id)}`,
};

function Changes({ row }: { row: Row }) {
  if (row.before === null && row.after === null) return "—";
  return (
    <Dialog
      title={`${row.action} · ${row.subject_type} ${row.subject_id}`}
      description={`${row.actor}, ${formatDateTime(row.at)}`}
      trigger={
        <Button variant="secondary" size="small">
          View changes
        </Button>
      }
    >
      <div className="stack">
        {row.before !== null && <JsonView label="Before" value={row.before} />}
        {row.after !== null && <JsonView label="After" value={row.after} />}
      </div>
    </Dialog>
  );
}

const columns: ColumnDef<Row>[] = [
  { accessorKey: "at", header: "When", enableSorting: true, cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  {
    accessorKey: "actor",
    header: "Who",
    enableSorting: true,
    cell: ({ row }) => (
      <>
        {row.original.actor}
        {row.original.actor_role && <small className="muted"> · {row.original.actor_role.replace("_", " ")}</small>}
      </>
    ),
  },
  { accessorKey: "action", header: "Action", enableSorting: true, cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  {
    id: "subject",
    header: "Subject",
    cell: ({ row }) => {
      const { subject_type: type, subject_id: id } = row.original;
      const page = SUBJECT_PAGES[type];
      return (
        <>
          {type} {page ? <Link href={page(id)}>{id}</Link> : <code>{id}</code>}
        </>
      );
    },
  },
  { id: "changes", header: "Before / after", cell: ({ row }) => <Changes row={row.original} /> },
];

/** The audit log, newest first; its filters are in the URL so a view can be shared. */
export function AuditTable() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { action, subject_type, subject_id } = filters.values;
  const rows = useInfiniteQuery(
    trpc.audit.search.infiniteQueryOptions(
      { action: action || undefined, subjectType: subject_type || undefined, subjectId: subject_id || undefined, limit: PAGE },
      { getNextPageParam: nextIdBelow(PAGE) },
    ),
  );
  return (
    <>
      <FilterBar key={filters.formKey} label="Filter the audit log" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Action" name="action" defaultValue={action} placeholder="deliveries.retry" maxLength={100} />
        <TextField label="Subject type" name="subject_type" defaultValue={subject_type} placeholder="webhook_delivery" maxLength={100} />
        <TextField label="Subject id" name="subject_id" defaultValue={subject_id} maxLength={200} />
      </FilterBar>
      <DataTable label="Audit log" columns={columns} {...infiniteTableProps(rows)} empty="No changes recorded match." getRowId={(row) => String(row.id)} />
    </>
  );
}
