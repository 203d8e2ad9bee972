import { PageHeader } from "../../_ui";
import { DeliveriesTable } from "./deliveries-table";

export const metadata = { title: "Deliveries" };

export default function DeliveriesPage() {
  return (
    <section>
      <PageHeader title="Deliveries" />
      <DeliveriesTable />
    </section>
  );
}
