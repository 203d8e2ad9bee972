"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button, ConfirmDialog, errorMessage, useConsoleMutation, useTRPC } from "../../_ui";
import { type FilterValues, searchInputOf } from "./filters";

/** The dry run, shown in the dialog as soon as it opens. */
function DryRunCount({ filter }: { filter: ReturnType<typeof bulkFilterOf> }) {
  const trpc = useTRPC();
  const count = useQuery(trpc.webhooks.bulkRetries.count.queryOptions(filter, { staleTime: 0 }));
  if (count.error) return <p role="alert">{errorMessage(count.error)}</p>;
  if (!count.data) return <p aria-busy="true">Counting…</p>;
  return (
    <p>
      <strong data-testid="bulk-matched">{count.data.matched}</strong> failed {count.data.matched === 1 ? "delivery matches" : "deliveries match"} this filter.
    </p>
  );
}

/** Bulk retry works on failed deliveries only: the status filter is not part of it. */
function bulkFilterOf(values: FilterValues) {
  const { status: _status, ...filter } = searchInputOf(values);
  return filter;
}

/** Progress of a running bulk retry, read until it is done. */
function Progress({ id }: { id: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const progress = useQuery(
    trpc.webhooks.bulkRetries.progress.queryOptions(
      { id },
      { refetchInterval: (query) => (query.state.data && ["done", "failed"].includes(query.state.data.status) ? false : 500) },
    ),
  );
  const data = progress.data;
  if (data?.status === "done") void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
  return (
    <p role="status">
      Bulk retry #{id}: {data ? `${data.status}, ${data.enqueued} of ${data.matched} re-enqueued` : "starting…"}
      {data?.error ? ` (${data.error})` : ""}
    </p>
  );
}

/** Re-enqueue every failed delivery matching the current filter: dry-run count first, then a job with progress. */
export function BulkRetry({ values }: { values: FilterValues }) {
  const trpc = useTRPC();
  const [started, setStarted] = useState<number | null>(null);
  const filter = bulkFilterOf(values);
  // The deliveries change as the job runs: `Progress` refreshes them once it is done.
  const start = useConsoleMutation(trpc.webhooks.bulkRetries.start.mutationOptions(), { invalidates: [], onSuccess: (bulk) => setStarted(bulk.id) });
  return (
    <div>
      <ConfirmDialog
        trigger={<Button variant="secondary">Retry failed deliveries…</Button>}
        title="Retry the failed deliveries matching this filter"
        description="Each gets a fresh schedule of 25 attempts under its delivery id. The retry runs as a job; its progress shows here."
        actionLabel="Retry failed deliveries"
        confirmText="retry"
        danger
        pending={start.isPending}
        error={start.error ? errorMessage(start.error) : undefined}
        onConfirm={() => start.mutateAsync(filter)}
      >
        <DryRunCount filter={filter} />
      </ConfirmDialog>
      {started !== null && <Progress id={started} />}
    </div>
  );
}
