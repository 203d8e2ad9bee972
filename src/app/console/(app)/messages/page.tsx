import { PageHeader } from "../../_ui";
import { MessagesTable } from "./messages-table";

export const metadata = { title: "Messages" };

export default function MessagesPage() {
  return (
    <section>
      <PageHeader title="Messages">
        <p className="lede">
          Every message sent to renters (or kept, where no SMTP relay is configured): search by email, policy number or kind; open one to see it as the renter
          does, and why it failed.
        </p>
      </PageHeader>
      <MessagesTable />
    </section>
  );
}
