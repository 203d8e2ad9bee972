import { PageHeader } from "../../_ui";
import { ProspectsTable } from "./prospects-table";

export const metadata = { title: "Prospects" };

export default function ProspectsPage() {
  return (
    <section>
      <PageHeader title="Prospects" />
      <ProspectsTable />
    </section>
  );
}
