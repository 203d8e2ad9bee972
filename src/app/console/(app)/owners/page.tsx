import Link from "next/link";
import { Button, PageHeader } from "../../_ui";
import { OwnersTable } from "./owners-table";

export const metadata = { title: "Owners" };

export default function OwnersPage() {
  return (
    <section>
      <PageHeader
        title="Property owners"
        actions={
          <Button asChild variant="secondary">
            <Link href="/console/owners/merge">Merge duplicate owners</Link>
          </Button>
        }
      />
      <OwnersTable />
    </section>
  );
}
