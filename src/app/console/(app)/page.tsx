import { PageHeader } from "../_ui";

/** The console's landing page; the overview's charts replace this text (issue 11 item 7). */
export default function ConsoleHome() {
  return (
    <section>
      <PageHeader title="Overview" />
      <p>Choose a section above.</p>
    </section>
  );
}
