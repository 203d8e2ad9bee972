import { Suspense } from "react";
import { PageHeader } from "../../../_ui";
import { AccessNav } from "../access-nav";
import { ClientsScreen } from "./clients-screen";

export const metadata = { title: "API clients" };

export default function ClientsPage() {
  return (
    <section>
      <PageHeader title="API clients" />
      <AccessNav />
      <Suspense>
        <ClientsScreen />
      </Suspense>
    </section>
  );
}
