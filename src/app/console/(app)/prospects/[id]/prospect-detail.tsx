"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import {
  Badge,
  type ColumnDef,
  type ConsoleOutputs,
  DataTable,
  errorMessage,
  Facts,
  formatDateTime,
  JsonView,
  PageHeader,
  Tabs,
  useTRPC,
  useUrlFilters,
} from "../../../_ui";

type Detail = ConsoleOutputs["prospects"]["detail"];
type Application = Detail["applications"][number];
type Delivery = Detail["deliveries"][number];

const money = (cents: number | null) => (cents === null ? "—" : `$${(cents / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`);
const TAB = { tab: "eligibility" };

const PRODUCTS: [key: "sdi" | "cd", label: string][] = [
  ["sdi", "Deposit insurance"],
  ["cd", "Cash deposit"],
];

function Eligibility({ prospect }: { prospect: Detail }) {
  const decision = prospect.eligibility;
  if (!decision) return <p>Not evaluated yet{prospect.status === "incomplete" ? ": the prospect is incomplete." : "."}</p>;
  const rows: [string, boolean | undefined, string[]][] = PRODUCTS.map(([key, label]) => [label, decision[key].length === 0, decision[key]]);
  if (decision.rg) rows.push(["Lease guarantee", decision.rg.status === undefined ? undefined : decision.rg.status === "eligible", decision.rg.reasons]);
  return (
    <>
      <p>
        Overall: <Badge status={decision.eligible ? "eligible" : "ineligible"} />
      </p>
      <ul className="eligibility">
        {rows.map(([label, eligible, reasons]) => (
          <li key={label}>
            <strong>{label}</strong>{" "}
            {eligible === undefined ? <Badge tone="warning">undetermined</Badge> : <Badge status={eligible ? "eligible" : "ineligible"} />}
            {reasons.length > 0 && (
              <ul className="reasons">
                {reasons.map((reason) => (
                  <li key={reason}>
                    <code>{reason}</code>
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
      <h3>Enrollment links</h3>
      {prospect.enrollment_url ? (
        <Facts
          items={[
            [`Enrollment (${prospect.source_flow})`, <LinkText key="e" href={prospect.enrollment_url} />],
            ["Hosted (expedited)", prospect.hosted_enrollment_url ? <LinkText key="h" href={prospect.hosted_enrollment_url} /> : "—"],
          ]}
        />
      ) : (
        <p>No links: the prospect is not ready and eligible for any product.</p>
      )}
    </>
  );
}

function LinkText({ href }: { href: string }) {
  return (
    <a href={href} target="_blank" rel="noreferrer" className="break">
      {href}
    </a>
  );
}

const applicationColumns: ColumnDef<Application>[] = [
  { accessorKey: "public_id", header: "Application", cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { accessorKey: "status", header: "Record", cell: ({ getValue }) => <Badge status={getValue<string>()} /> },
  {
    accessorKey: "outcome",
    header: "Underwriting",
    cell: ({ getValue }) =>
      getValue<string | null>() ? <Badge status={getValue<string>() === "quoted" ? "approved" : "declined"}>{getValue<string>()}</Badge> : "—",
  },
  { accessorKey: "product_type", header: "Product", cell: ({ row }) => [row.original.product_type, row.original.cadence].filter(Boolean).join(" · ") || "—" },
  {
    accessorKey: "step",
    header: "Step",
    cell: ({ row }) => (row.original.blocked_reason ? `${row.original.step} (blocked: ${row.original.blocked_reason})` : row.original.step),
  },
  { accessorKey: "submitted_at", header: "Submitted", cell: ({ getValue }) => formatDateTime(getValue<string | null>()) },
  { accessorKey: "paid_at", header: "Paid", cell: ({ getValue }) => formatDateTime(getValue<string | null>()) },
  { accessorKey: "created_at", header: "Started", cell: ({ getValue }) => formatDateTime(getValue<string>()) },
];

const deliveryColumns: ColumnDef<Delivery>[] = [
  { accessorKey: "id", header: "Delivery", cell: ({ getValue }) => <Link href={`/console/deliveries/${getValue<string>()}`}>{getValue<string>()}</Link> },
  { accessorKey: "event", header: "Event", enableSorting: true, cell: ({ getValue }) => <code>{getValue<string>()}</code> },
  { accessorKey: "status", header: "Status", enableSorting: true, cell: ({ getValue }) => <Badge status={getValue<string>()} /> },
  {
    accessorKey: "endpoint_name",
    header: "Endpoint",
    cell: ({ row }) => (
      <>
        {row.original.endpoint_name}
        <br />
        <small className="muted">{row.original.destination_url}</small>
      </>
    ),
  },
  { accessorKey: "attempts", header: "Attempts" },
  {
    accessorKey: "failure_reason",
    header: "Last failure",
    cell: ({ getValue }) => <span className="cell-text">{getValue<string | null>() ?? "—"}</span>,
  },
  { accessorKey: "created_at", header: "Created", enableSorting: true, cell: ({ getValue }) => formatDateTime(getValue<string>()) },
];

/** One prospect: state, eligibility and links, applications, underwriting, coverage, deliveries. */
export function ProspectDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const tab = useUrlFilters(TAB);
  const { data: prospect, error } = useQuery(trpc.prospects.detail.queryOptions({ id }));
  const back = { href: "/console/prospects", label: "All prospects" };
  if (error)
    return (
      <section>
        <PageHeader title="Prospect" back={back} />
        <p role="alert">{errorMessage(error)}</p>
      </section>
    );
  if (!prospect) return <p aria-busy="true">Loading…</p>;
  return (
    <section>
      <PageHeader title={`Prospect ${prospect.source_prospect_id}`} back={back} actions={<Badge status={prospect.status} />} />
      <Facts
        items={[
          ["Id", <code key="id">{prospect.public_id}</code>],
          ["Owner", `${prospect.owner_name} (${prospect.owner_slug})`],
          ["Source", `${prospect.source} · ${prospect.source_flow} flow`],
          ["Renter", [prospect.name, prospect.email, prospect.phone].filter(Boolean).join(" · ") || "—"],
          ["Building · unit", prospect.building ? `${prospect.building.name} · ${prospect.unit?.name ?? "—"}` : "Not resolved"],
          ["Lease", prospect.lease_start_date ? `${prospect.lease_start_date} – ${prospect.lease_end_date ?? "…"}` : "—"],
          ["Rent · deposit", `${money(prospect.monthly_rent_cents)} · ${money(prospect.deposit_amount_cents)}`],
          ["Effective coverage", money(prospect.effective_coverage_amount_cents)],
          ["Guarantor coverage", prospect.guarantor_coverage ? "Requested" : "No"],
          ["PMS", prospect.pms.type ? `${prospect.pms.type} · property ${prospect.pms.property_id ?? "—"} · unit ${prospect.pms.unit_id ?? "—"}` : "—"],
          ["Application submitted", prospect.application_submitted ? "Yes" : "No"],
          [
            "Policies",
            <Link key="pol" href={`/console/policies?q=${encodeURIComponent(prospect.source_prospect_id)}`}>
              Search policies of this prospect
            </Link>,
          ],
          ["Created · updated", `${formatDateTime(prospect.created_at)} · ${formatDateTime(prospect.updated_at)} (version ${prospect.version})`],
        ]}
      />
      <Tabs
        label="Prospect details"
        value={tab.values.tab}
        onValueChange={(value) => tab.set({ tab: value })}
        tabs={[
          { value: "eligibility", label: "Eligibility", content: <Eligibility prospect={prospect} /> },
          {
            value: "applications",
            label: `Applications (${prospect.applications.length})`,
            content: (
              <>
                <DataTable label="Applications" columns={applicationColumns} data={prospect.applications} empty="The renter has not started an application." />
                <h3>Underwriting outcome</h3>
                {prospect.underwriting ? <JsonView label="Last underwriting" value={prospect.underwriting} /> : <p>Not underwritten yet.</p>}
              </>
            ),
          },
          {
            value: "deliveries",
            label: `Deliveries (${prospect.deliveries.length})`,
            content: (
              <DataTable
                label="Deliveries about this prospect"
                columns={deliveryColumns}
                data={prospect.deliveries}
                empty="No webhook deliveries about this prospect."
                getRowId={(row) => row.id}
              />
            ),
          },
          {
            value: "coverage",
            label: "Latest coverage",
            content: prospect.latest_coverage ? <JsonView label="Latest coverage" value={prospect.latest_coverage} /> : <p>No coverage reported.</p>,
          },
        ]}
      />
    </section>
  );
}
