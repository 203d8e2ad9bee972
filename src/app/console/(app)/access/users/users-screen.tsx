"use client";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { staffPasswordResetInput, staffUserCreateInput } from "@/features/console/users.inputs";
import {
  Badge,
  Button,
  type ColumnDef,
  ConfirmDialog,
  type ConsoleOutputs,
  DataTable,
  Dialog,
  errorMessage,
  Field,
  FilterBar,
  FormError,
  FormSelect,
  formatDateTime,
  Input,
  Select,
  SubmitButton,
  TextField,
  useCan,
  useConsoleForm,
  useConsoleMutation,
  useTRPC,
  useUrlFilters,
} from "../../../_ui";
import styles from "../../../_ui/ui.module.css";

type User = ConsoleOutputs["users"]["list"][number];
type Role = User["role"];

const FILTERS = { q: "", role: "", status: "" };
const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: "account_manager", label: "Account manager" },
  { value: "operator", label: "Operator" },
];
const ROLE_LABEL: Record<Role, string> = { operator: "Operator", account_manager: "Account manager" };
const PASSWORD_HINT = "At least 12 characters, and not the email address.";

function ChangeRole({ user }: { user: User }) {
  const trpc = useTRPC();
  const setRole = useConsoleMutation(trpc.users.setRole.mutationOptions(), { invalidates: [trpc.users] });
  const next: Role = user.role === "operator" ? "account_manager" : "operator";
  return (
    <ConfirmDialog
      trigger={
        <Button variant="secondary" size="small" aria-label={`Make ${user.email} ${ROLE_LABEL[next].toLowerCase()}`}>
          Make {ROLE_LABEL[next].toLowerCase()}
        </Button>
      }
      title={`Make ${user.email} ${ROLE_LABEL[next].toLowerCase()}?`}
      description="The new role applies from the user's next request."
      actionLabel="Change role"
      pending={setRole.isPending}
      error={setRole.error ? errorMessage(setRole.error) : undefined}
      onConfirm={() => setRole.mutateAsync({ id: user.id, role: next })}
    />
  );
}

function ToggleDisabled({ user }: { user: User }) {
  const trpc = useTRPC();
  const toggle = useConsoleMutation(trpc.users.setDisabled.mutationOptions(), { invalidates: [trpc.users] });
  const verb = user.disabled ? "Enable" : "Disable";
  return (
    <ConfirmDialog
      trigger={
        <Button variant={user.disabled ? "secondary" : "danger"} size="small" aria-label={`${verb} ${user.email}`}>
          {verb}
        </Button>
      }
      title={`${verb} ${user.email}?`}
      description={user.disabled ? "They can sign in again." : "They cannot sign in, and an open session of theirs is refused on its next request."}
      actionLabel={verb}
      danger={!user.disabled}
      pending={toggle.isPending}
      error={toggle.error ? errorMessage(toggle.error) : undefined}
      onConfirm={() => toggle.mutateAsync({ id: user.id, disabled: !user.disabled })}
    />
  );
}

function ResetPassword({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button variant="secondary" size="small" aria-label={`Reset the password of ${user.email}`}>
          Reset password
        </Button>
      }
      title={`Reset the password of ${user.email}`}
      description="Their sessions signed in before the reset are refused from now on. Tell them the new password yourself: it is not shown again."
    >
      <ResetPasswordForm user={user} onDone={() => setOpen(false)} />
    </Dialog>
  );
}

/** Lives inside the dialog: closing it forgets what was typed and the last failure. */
function ResetPasswordForm({ user, onDone }: { user: User; onDone: () => void }) {
  const trpc = useTRPC();
  const reset = useConsoleMutation(trpc.users.resetPassword.mutationOptions(), { invalidates: [trpc.users], onSuccess: onDone });
  const { register, onSubmit, errorOf, general, pending } = useConsoleForm({
    schema: staffPasswordResetInput,
    defaultValues: { id: user.id, password: "" },
    mutation: reset,
  });
  return (
    <form className={styles.dialogForm} noValidate onSubmit={onSubmit}>
      <Field label="New password" hint={PASSWORD_HINT} error={errorOf("password")}>
        {(control) => <Input {...control} {...register("password")} type="password" autoComplete="new-password" maxLength={201} />}
      </Field>
      <FormError message={general} />
      <div className={styles.dialogActions}>
        <SubmitButton pending={pending}>Set password</SubmitButton>
      </div>
    </form>
  );
}

function CreateUser() {
  const trpc = useTRPC();
  const create = useConsoleMutation(trpc.users.create.mutationOptions(), { invalidates: [trpc.users] });
  const { register, control, onSubmit, errorOf, general, done, pending } = useConsoleForm({
    schema: staffUserCreateInput,
    defaultValues: { email: "", password: "", role: "account_manager" },
    mutation: create,
    resetOnSuccess: true,
  });
  return (
    <form className="access-form" onSubmit={onSubmit} aria-labelledby="create-user-title" noValidate>
      <h2 id="create-user-title">Create a user</h2>
      <Field label="Email" error={errorOf("email")}>
        {(control) => <Input {...control} {...register("email")} type="email" maxLength={254} autoComplete="off" />}
      </Field>
      <Field label="Password" hint={PASSWORD_HINT} error={errorOf("password")}>
        {(control) => <Input {...control} {...register("password")} type="password" autoComplete="new-password" maxLength={201} />}
      </Field>
      <FormSelect control={control} name="role" label="Role" options={ROLE_OPTIONS} error={errorOf("role")} />
      <FormError message={general} />
      {done && <output>{done.email} can now sign in.</output>}
      <SubmitButton pending={pending} pendingLabel="Creating…">
        Create user
      </SubmitButton>
    </form>
  );
}

const columns: ColumnDef<User>[] = [
  { accessorKey: "email", header: "Email", enableSorting: true },
  { accessorKey: "role", header: "Role", enableSorting: true, cell: ({ getValue }) => ROLE_LABEL[getValue<Role>()] },
  { accessorKey: "created_at", header: "Created", enableSorting: true, cell: ({ getValue }) => formatDateTime(getValue<string>()) },
  {
    accessorKey: "disabled",
    header: "Status",
    cell: ({ row }) =>
      row.original.disabled ? (
        <>
          <Badge status="disabled" /> <small>since {formatDateTime(row.original.disabled_at)}</small>
        </>
      ) : (
        <Badge status="active" />
      ),
  },
  {
    id: "actions",
    header: "Actions",
    cell: ({ row }) => (
      <div className="row-actions">
        <ChangeRole user={row.original} />
        <ToggleDisabled user={row.original} />
        <ResetPassword user={row.original} />
      </div>
    ),
  },
];

/** Console users and roles (operators only; the whole screen is `users.manage`). */
export function UsersScreen() {
  return useCan("users.manage") ? (
    <UsersManager />
  ) : (
    <p role="alert" className="error">
      Only operators manage console users.
    </p>
  );
}

function UsersManager() {
  const trpc = useTRPC();
  const filters = useUrlFilters(FILTERS);
  const { q, role, status } = filters.values;
  const list = useQuery(trpc.users.list.queryOptions());
  const rows = useMemo(
    () =>
      list.data?.filter((u) => (!q || u.email.includes(q.toLowerCase())) && (!role || u.role === role) && (!status || (status === "disabled") === u.disabled)),
    [list.data, q, role, status],
  );
  return (
    <>
      <FilterBar key={filters.formKey} label="Search users" onApply={filters.fromForm} onReset={filters.reset}>
        <TextField label="Email contains" name="q" type="search" defaultValue={q} maxLength={254} />
        <Select label="Role" name="role" defaultValue={role} options={[{ value: "", label: "Any" }, ...ROLE_OPTIONS]} />
        <Select
          label="Status"
          name="status"
          defaultValue={status}
          options={[
            { value: "", label: "Any" },
            { value: "active", label: "Active" },
            { value: "disabled", label: "Disabled" },
          ]}
        />
      </FilterBar>
      <DataTable
        label="Console users"
        columns={columns}
        data={rows}
        isPending={list.isPending}
        error={list.error}
        empty="No user matches."
        getRowId={(u) => String(u.id)}
      />
      <CreateUser />
    </>
  );
}
