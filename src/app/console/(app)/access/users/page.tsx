import { PageHeader } from "../../../_ui";
import { AccessNav } from "../access-nav";
import { UsersScreen } from "./users-screen";

export const metadata = { title: "Console users" };

export default function UsersPage() {
  return (
    <section>
      <PageHeader title="Console users" />
      <AccessNav />
      <p className="hint">
        Operators may do everything; account managers manage owners, clients, grants, sources, frame origins and secrets, and read deliveries. A disabled user
        cannot sign in, and an open session of theirs is refused on its next request.
      </p>
      <UsersScreen />
    </section>
  );
}
