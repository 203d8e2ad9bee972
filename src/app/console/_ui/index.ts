/**
 * The console's UI kit: shadcn/ui-style components over Radix primitives, kept in the repository
 * so they are ours to read and change. Data: tRPC's TanStack Query integration (`useTRPC`); the
 * provider is in the console layout. A screen, in short:
 *
 *   const FILTERS = { q: "", status: "" };               // module constant: names and defaults
 *   const trpc = useTRPC();
 *   const filters = useUrlFilters(FILTERS);               // values live in the URL's query string
 *   const rows = useInfiniteQuery(trpc.x.search.infiniteQueryOptions(
 *     { ...input, limit: 50 }, { getNextPageParam: nextIdBelow(50) }));   // input has `cursor`
 *   <FilterBar key={filters.formKey} label="…" onApply={filters.fromForm} onReset={filters.reset}>
 *     <TextField label="…" name="q" defaultValue={filters.values.q} />
 *     <Select label="Status" name="status" defaultValue={filters.values.status} options={…} />
 *   </FilterBar>
 *   <DataTable label="…" columns={columns} {...infiniteTableProps(rows)} />
 *
 * Mutations: `useConsoleMutation(trpc.x.retry.mutationOptions(), { invalidates: [trpc.x] })` (the
 * audit log is refreshed too), behind `<Can permission>` and, when dangerous, a
 * `<ConfirmDialog confirmText="…">`. Forms: `useConsoleForm({ schema, defaultValues, mutation })`
 * with the procedure's own input schema (CONTRIBUTING.md, "A console form").
 */
export { Badge } from "./badge";
export { Button } from "./button";
export { type ColumnDef, createColumnHelper, DataTable, infiniteTableProps, nextIdBelow } from "./data-table";
export { ConfirmDialog, Dialog } from "./dialog";
export { Field, Input, TextField } from "./field";
export { FormError, SubmitButton } from "./form";
export { failureOf, linesOf } from "./form-errors";
export { FormSelect } from "./form-select";
export { JsonView } from "./json-view";
export { Facts, FilterBar, formatDateTime, PageHeader } from "./layout";
export { Can, useCan } from "./permissions";
export { Select, type SelectOption } from "./select";
export { type Tab, Tabs } from "./tabs";
export { type ConsoleInputs, type ConsoleOutputs, errorMessage, fieldErrorsOf, useTRPC, useTRPCClient } from "./trpc";
export { useConsoleForm } from "./use-console-form";
export { type Invalidates, useConsoleMutation } from "./use-console-mutation";
export { useUrlFilters } from "./use-url-filters";
