import { PoliciesTable } from "./policies-table";

export const metadata = { title: "Policies" };

export default function PoliciesPage() {
  return (
    <section>
      <h1>Policies</h1>
      <PoliciesTable />
    </section>
  );
}
