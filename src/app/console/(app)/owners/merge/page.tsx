import { PageHeader } from "../../../_ui";
import { MergeScreen } from "./merge-screen";

export const metadata = { title: "Merge owners" };

export default function MergeOwnersPage() {
  return (
    <section>
      <PageHeader title="Merge duplicate owners" back={{ href: "/console/owners", label: "Owners" }}>
        <p>
          A partner that creates an owner the service already manages makes a duplicate. Merging moves everything of the duplicate to the survivor in one
          transaction; nothing is deleted, and the duplicate's slug keeps answering for the survivor.
        </p>
      </PageHeader>
      <MergeScreen />
    </section>
  );
}
