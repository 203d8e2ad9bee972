import { Suspense } from "react";
import { PageHeader } from "../../../_ui";
import { AccessNav } from "../access-nav";
import { BuildingGrantsScreen } from "./building-grants-screen";

export const metadata = { title: "Building grants" };

export default function BuildingGrantsPage() {
  return (
    <section>
      <PageHeader title="Building grants" />
      <AccessNav />
      <Suspense>
        <BuildingGrantsScreen />
      </Suspense>
    </section>
  );
}
