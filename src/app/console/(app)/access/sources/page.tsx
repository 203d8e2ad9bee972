import { PageHeader } from "../../../_ui";
import { AccessNav } from "../access-nav";
import { SourcesScreen } from "./sources-screen";

export const metadata = { title: "Sources" };

export default function SourcesPage() {
  return (
    <section>
      <PageHeader title="Sources" />
      <AccessNav />
      <p className="hint">
        The partner codes prospects are written under: the enrollment flow they use, whether ingested events may omit fields, and where the flow may send
        renters back to.
      </p>
      <SourcesScreen />
    </section>
  );
}
