"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import {
  Button,
  Can,
  type ColumnDef,
  ConfirmDialog,
  type ConsoleOutputs,
  DataTable,
  errorMessage,
  Facts,
  formatDateTime,
  Select,
  useConsoleMutation,
  useTRPC,
} from "../../../_ui";

type Plan = ConsoleOutputs["ownerMerge"]["preview"];
type MergeRecord = ConsoleOutputs["ownerMerge"]["history"][number];
type Conflict = Plan["conflicts"][number];

const MOVE_LABELS: [keyof Plan["moves"], string][] = [
  ["buildings", "Buildings"],
  ["units", "Units"],
  ["bank_accounts", "Bank accounts"],
  ["prospects", "Prospects"],
  ["policies", "Policies"],
  ["move_outs", "Move-outs"],
  ["endpoints", "Webhook endpoints"],
  ["deliveries", "Deliveries"],
  ["grants", "Client grants"],
  ["sources", "Sources"],
];

const conflictColumns: ColumnDef<Conflict>[] = [
  { accessorKey: "kind", header: "Conflict", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { accessorKey: "detail", header: "Detail" },
  { accessorKey: "resolution", header: "Resolution" },
];

const historyColumns: ColumnDef<MergeRecord>[] = [
  { accessorKey: "merged_at", header: "Merged", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  { accessorKey: "from", header: "Duplicate", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { accessorKey: "into", header: "Survivor", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { id: "moved", header: "Moved", cell: ({ row }) => `${row.original.moved.buildings} buildings, ${row.original.moved.prospects} prospects` },
  { accessorKey: "conflicts", header: "Conflicts", cell: ({ row }) => row.original.conflicts.length },
  { accessorKey: "actor", header: "By" },
  { accessorKey: "secret_valid_until", header: "Old secret signed until", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
];

/** Pick a duplicate and a survivor, read the preview, confirm by typing the duplicate's slug, see the result. */
export function MergeScreen() {
  const trpc = useTRPC();
  const owners = useQuery(trpc.ownerMerge.owners.queryOptions());
  const history = useQuery(trpc.ownerMerge.history.queryOptions());
  const [from, setFrom] = useState("");
  const [into, setInto] = useState("");
  const [asked, setAsked] = useState<{ from: string; into: string } | null>(null);
  const preview = useQuery(trpc.ownerMerge.preview.queryOptions(asked ?? { from: "-", into: "-" }, { enabled: asked !== null }));
  // Not the preview: it would be read again for an owner merged away.
  const merge = useConsoleMutation(trpc.ownerMerge.merge.mutationOptions(), {
    invalidates: [trpc.ownerMerge.owners, trpc.ownerMerge.history, trpc.owners],
    onSuccess: () => setAsked(null),
  });
  const open = (owners.data ?? []).filter((owner) => !owner.merged_into);
  const options = open.map((owner) => ({ value: owner.owner_slug, label: `${owner.name} (${owner.owner_slug})${owner.managed ? " · managed" : ""}` }));
  const plan = asked && preview.data;

  return (
    <>
      <form
        aria-label="Owners to merge"
        onSubmit={(event) => {
          event.preventDefault();
          merge.reset();
          if (from && into) setAsked({ from, into });
        }}
      >
        <Select label="Duplicate (merged away)" value={from} onValueChange={setFrom} options={options} />
        <Select label="Survivor (keeps everything)" value={into} onValueChange={setInto} options={options} />
        <Button type="submit" disabled={!from || !into || from === into}>
          Preview merge
        </Button>
        {from && from === into && <p role="alert">Pick two different owners.</p>}
      </form>

      {asked && preview.isPending && <p>Working out the plan…</p>}
      {asked && preview.error && <p role="alert">{errorMessage(preview.error)}</p>}
      {plan && (
        <section aria-label="Merge preview">
          <h2>
            Preview: <code>{plan.from}</code> into <code>{plan.into}</code>
          </h2>
          <h3>What moves</h3>
          <Facts items={MOVE_LABELS.map(([key, label]) => [label, String(plan.moves[key])])} />
          <h3>Conflicts and how they are resolved</h3>
          <DataTable
            label="Conflicts"
            columns={conflictColumns}
            data={plan.conflicts}
            isPending={false}
            empty="No conflicts."
            getRowId={(c) => `${c.kind}:${c.detail}`}
          />
          <p>
            After the merge, <code>{plan.from}</code> and its external_org_id answer for <code>{plan.into}</code>; its webhook signing secret is signed with
            beside the survivor's for 24 hours.
          </p>
          <Can permission="owners.merge">
            <ConfirmDialog
              trigger={<Button variant="danger">Merge…</Button>}
              title={`Merge ${plan.from} into ${plan.into}`}
              description="One transaction moves everything listed. This cannot be undone from the console."
              actionLabel="Merge owners"
              confirmText={plan.from}
              danger
              pending={merge.isPending}
              error={merge.error ? errorMessage(merge.error) : undefined}
              onConfirm={() => merge.mutateAsync({ from: plan.from, into: plan.into, confirm: plan.from })}
            />
          </Can>
        </section>
      )}

      {merge.data && (
        <section aria-label="Merge result">
          <p role="status">
            Merged <code>{merge.data.from}</code> into <code>{merge.data.into}</code> (merge #{merge.data.id}): {merge.data.moved.buildings} buildings,{" "}
            {merge.data.moved.prospects} prospects and {merge.data.moved.endpoints} endpoints moved.
          </p>
        </section>
      )}

      <h2>Merges</h2>
      <DataTable
        label="Merges"
        columns={historyColumns}
        data={history.data}
        isPending={history.isPending}
        error={history.error}
        empty="No owner has been merged."
        getRowId={(row) => String(row.id)}
      />
    </>
  );
}
