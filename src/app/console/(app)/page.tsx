import { OwnersTable } from "./owners-table";

export default function OwnersPage() {
  return (
    <section>
      <h1>Property owners</h1>
      <OwnersTable />
    </section>
  );
}
