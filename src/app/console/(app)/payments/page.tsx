import { PageHeader } from "../../_ui";
import { UnresolvedPaymentsTable } from "./unresolved-payments-table";

export const metadata = { title: "Unresolved payments" };

export default function UnresolvedPaymentsPage() {
  return (
    <section>
      <PageHeader title="Unresolved payments" />
      <UnresolvedPaymentsTable />
    </section>
  );
}
