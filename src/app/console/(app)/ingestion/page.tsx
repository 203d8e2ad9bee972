import { IngestionTable } from "./ingestion-table";

export default function IngestionPage() {
  return (
    <section>
      <h1>Ingested events</h1>
      <IngestionTable />
    </section>
  );
}
