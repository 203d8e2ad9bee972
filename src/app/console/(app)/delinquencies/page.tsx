import { PageHeader } from "../../_ui";
import { DelinquenciesTable } from "./delinquencies-table";

export const metadata = { title: "Delinquencies" };

export default function DelinquenciesPage() {
  return (
    <section>
      <PageHeader title="Delinquencies" />
      <DelinquenciesTable />
    </section>
  );
}
