import { Suspense } from "react";
import { PageHeader } from "../../../_ui";
import { AccessNav } from "../access-nav";
import { ProvidersScreen } from "./providers-screen";

export const metadata = { title: "Providers" };

export default function ProvidersPage() {
  return (
    <section>
      <PageHeader title="Providers" />
      <AccessNav />
      <Suspense>
        <ProvidersScreen />
      </Suspense>
    </section>
  );
}
