"use client";
import { Badge, type ColumnDef, type ConsoleOutputs, DataTable, formatDateTime } from "../../../_ui";
import { day, money } from "../format";
import styles from "./policy.module.css";

type Policy = ConsoleOutputs["policies"]["detail"];
type StatusChange = Policy["status_history"][number];
type Revision = Policy["revisions"][number];
type State = Revision["before"];

const statusColumns: ColumnDef<StatusChange>[] = [
  { accessorKey: "changed_at", header: "When", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  {
    id: "change",
    header: "Change",
    cell: ({ row }) => (
      <span>
        {row.original.from_status ? <Badge status={row.original.from_status} /> : "issued"} → <Badge status={row.original.to_status} />
      </span>
    ),
  },
  { accessorKey: "actor", header: "By" },
  { accessorKey: "reason", header: "Reason (internal)", cell: ({ getValue }) => <span className="cell-text">{getValue<string | null>() ?? "—"}</span> },
];

/** Oldest first: issuance, the daily cron, revisions and cancellations (`policy_status_changes`). */
export function StatusHistory({ policy }: { policy: Policy }) {
  return (
    <section aria-labelledby="status-history-title">
      <h2 id="status-history-title">Status history</h2>
      <DataTable
        label="Status changes"
        columns={statusColumns}
        data={policy.status_history}
        empty="No status changes recorded."
        getRowId={(row) => `${row.changed_at}-${row.to_status}`}
      />
    </section>
  );
}

const unitLabel = (unit: State["unit"]) => (unit.external_id ? `${unit.name} (${unit.external_id})` : unit.name);

/** "Coverage: $1,500.00 → $1,800.00", one line per value that changed. */
function changesOf(before: State, after: State): string[] {
  const lines: string[] = [];
  if (before.coverage_amount_cents !== after.coverage_amount_cents)
    lines.push(`Coverage: ${money(before.coverage_amount_cents)} → ${money(after.coverage_amount_cents)}`);
  if (before.coverage_start_date !== after.coverage_start_date) lines.push(`Start: ${day(before.coverage_start_date)} → ${day(after.coverage_start_date)}`);
  if (before.coverage_end_date !== after.coverage_end_date) lines.push(`End: ${day(before.coverage_end_date)} → ${day(after.coverage_end_date)}`);
  if (before.unit.id !== after.unit.id) lines.push(`Unit: ${unitLabel(before.unit)} → ${unitLabel(after.unit)}`);
  if (before.status !== after.status) lines.push(`Status: ${before.status} → ${after.status}`);
  return lines;
}

const revisionColumns: ColumnDef<Revision>[] = [
  { accessorKey: "revised_at", header: "When", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  {
    id: "changes",
    header: "Before → after",
    cell: ({ row }) => (
      <ul className={styles.changes}>
        {changesOf(row.original.before, row.original.after).map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    ),
  },
  { accessorKey: "actor", header: "By" },
  { accessorKey: "note", header: "Note (internal)", cell: ({ getValue }) => <span className="cell-text">{getValue<string | null>() ?? "—"}</span> },
];

/** Newest first, each with what it changed. */
export function Revisions({ policy }: { policy: Policy }) {
  return (
    <section aria-labelledby="revisions-title">
      <h2 id="revisions-title">Revisions</h2>
      <DataTable label="Revisions made" columns={revisionColumns} data={policy.revisions} empty="Never revised." getRowId={(row) => String(row.id)} />
    </section>
  );
}

/** Every archive generation, newest first: each link keeps its own content (decisions §11 Documents). */
export function Documents({ policy }: { policy: Policy }) {
  return (
    <section aria-labelledby="documents-title">
      <h2 id="documents-title">Documents</h2>
      {policy.documents.length === 0 ? (
        <p>The document archive is being built.</p>
      ) : (
        <ol className={styles.documents}>
          {policy.documents.map((doc, i) => (
            <li key={doc.url}>
              <a href={doc.url}>{doc.filename}</a> · {formatDateTime(doc.created_at)} · {Math.max(1, Math.round(doc.byte_size / 1024))} KB
              {i === 0 ? " (current)" : ""}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
