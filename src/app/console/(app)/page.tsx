import { PageHeader } from "../_ui";
import { Overview } from "./overview/overview";

export const metadata = { title: "Overview" };

/** The console's landing page (docs/decisions.md, "Console: UI kit, prospects, overview, audit"). */
export default function ConsoleHome() {
  return (
    <section>
      <PageHeader title="Overview">
        <p className="lede">Webhook deliveries over the last 24 hours, the job queue and the endpoints that fail.</p>
      </PageHeader>
      <Overview />
    </section>
  );
}
