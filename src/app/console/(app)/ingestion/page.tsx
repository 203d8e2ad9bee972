import { PageHeader } from "../../_ui";
import { IngestionTable } from "./ingestion-table";

export const metadata = { title: "Ingested events" };

export default function IngestionPage() {
  return (
    <section>
      <PageHeader title="Ingested events" />
      <IngestionTable />
    </section>
  );
}
