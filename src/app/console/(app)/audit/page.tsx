import { PageHeader } from "../../_ui";
import { AuditTable } from "./audit-table";

export const metadata = { title: "Audit log" };

export default function AuditPage() {
  return (
    <section>
      <PageHeader title="Audit log">
        <p className="lede">Every change made in the console or by the operator CLI: who, when, what, before and after.</p>
      </PageHeader>
      <AuditTable />
    </section>
  );
}
