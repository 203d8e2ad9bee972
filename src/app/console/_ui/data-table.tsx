"use client";
import type { InfiniteData, UseInfiniteQueryResult } from "@tanstack/react-query";
import { type ColumnDef, flexRender, getCoreRowModel, getSortedRowModel, type SortingState, useReactTable } from "@tanstack/react-table";
import { type ReactNode, useState } from "react";
import { Button } from "./button";
import { errorMessage } from "./trpc";
import styles from "./ui.module.css";

export type { ColumnDef } from "@tanstack/react-table";
export { createColumnHelper } from "@tanstack/react-table";

export type LoadMore = { hasMore: boolean; loading: boolean; onLoadMore: () => void };

export type DataTableProps<T> = {
  // biome-ignore lint/suspicious/noExplicitAny: TanStack's column values are heterogeneous by design
  columns: ColumnDef<T, any>[];
  data: T[] | undefined;
  /** Names the table for assistive technology and the scroll region. */
  label: string;
  isPending?: boolean;
  error?: unknown;
  empty?: ReactNode;
  getRowId?: (row: T) => string;
  /** Keyset paging: the next page is fetched after the last loaded row, never by offset. */
  loadMore?: LoadMore;
  initialSorting?: SortingState;
};

/**
 * The one table of the console (TanStack Table). Sorting is opt-in per column
 * (`enableSorting: true`) and sorts the rows loaded so far; loading, error and empty states are
 * built in; wide tables scroll sideways inside their own region on a phone.
 */
export function DataTable<T>({ columns, data, label, isPending, error, empty, getRowId, loadMore, initialSorting }: DataTableProps<T>) {
  const [sorting, setSorting] = useState<SortingState>(initialSorting ?? []);
  const table = useReactTable({
    data: data ?? [],
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: getRowId ? (row) => getRowId(row) : undefined,
    defaultColumn: { enableSorting: false },
  });

  if (error && !data?.length)
    return (
      <p role="alert" className={styles.stateError}>
        Could not load {label.toLowerCase()}: {errorMessage(error)}
      </p>
    );
  if (isPending && !data)
    return (
      <p aria-busy="true" className={styles.state}>
        Loading…
      </p>
    );
  if (data && data.length === 0) return <p className={styles.state}>{empty ?? "Nothing here yet."}</p>;

  return (
    <>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll region must be reachable by keyboard */}
      <section className={styles.tableWrap} aria-label={label} tabIndex={0}>
        <table className={styles.table}>
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => {
                  const sorted = header.column.getIsSorted();
                  const title = header.isPlaceholder ? null : flexRender(header.column.columnDef.header, header.getContext());
                  return (
                    <th key={header.id} scope="col" aria-sort={sorted === "asc" ? "ascending" : sorted === "desc" ? "descending" : undefined}>
                      {header.column.getCanSort() ? (
                        <button type="button" className={styles.sortButton} onClick={header.column.getToggleSortingHandler()}>
                          {title}
                          <span aria-hidden="true" className={styles.sortMark}>
                            {sorted === "asc" ? "▲" : sorted === "desc" ? "▼" : "↕"}
                          </span>
                        </button>
                      ) : (
                        title
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {table.getRowModel().rows.map((row) => (
              <tr key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {error ? (
        <p role="alert" className={styles.stateError}>
          Could not load more: {errorMessage(error)}
        </p>
      ) : null}
      {loadMore?.hasMore && (
        <div className={styles.loadMore}>
          <Button variant="secondary" onClick={loadMore.onLoadMore} disabled={loadMore.loading} aria-busy={loadMore.loading || undefined}>
            {loadMore.loading ? "Loading…" : "Load more"}
          </Button>
        </div>
      )}
    </>
  );
}

/** Flattens a keyset `useInfiniteQuery` (pages of rows) into DataTable's props. */
export function infiniteTableProps<T>(query: UseInfiniteQueryResult<InfiniteData<T[], unknown>, unknown>) {
  return {
    data: query.data?.pages.flat(),
    isPending: query.isPending,
    error: query.error,
    loadMore: {
      hasMore: Boolean(query.hasNextPage),
      loading: query.isFetchingNextPage,
      onLoadMore: () => void query.fetchNextPage(),
    },
  } satisfies Partial<DataTableProps<T>>;
}

/** `getNextPageParam` for pages of rows ordered by descending id: the next page starts below the last id. */
export function nextIdBelow(limit: number) {
  return (lastPage: { id: number }[]) => (lastPage.length < limit ? undefined : lastPage[lastPage.length - 1]?.id);
}
