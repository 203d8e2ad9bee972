import { PageHeader } from "../../../_ui";
import { SourcesScreen } from "./sources-screen";

export const metadata = { title: "Sources" };

export default function SourcesPage() {
  return (
    <section>
      <PageHeader title="Sources" />
      <p className="hint">
        The partner codes prospects are written under: the enrollment flow they use, whether ingested events may omit fields, and where the flow may send
        renters back to.
      </p>
      <SourcesScreen />
    </section>
  );
}
