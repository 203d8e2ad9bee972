import { PageHeader } from "../../_ui";
import { OwnersTable } from "./owners-table";

export const metadata = { title: "Owners" };

export default function OwnersPage() {
  return (
    <section>
      <PageHeader title="Property owners" />
      <OwnersTable />
    </section>
  );
}
