import { Suspense } from "react";
import { PageHeader } from "../../_ui";
import { BuildingsTable } from "./buildings-table";

export const metadata = { title: "Buildings" };

export default function BuildingsPage() {
  return (
    <section>
      <PageHeader title="Buildings" />
      <Suspense>
        <BuildingsTable />
      </Suspense>
    </section>
  );
}
