import { PageHeader } from "../../_ui";
import { PoliciesTable } from "./policies-table";

export const metadata = { title: "Policies" };

export default function PoliciesPage() {
  return (
    <section>
      <PageHeader title="Policies" />
      <PoliciesTable />
    </section>
  );
}
