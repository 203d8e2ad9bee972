import { PageHeader } from "../../../_ui";
import { AccessNav } from "../access-nav";
import { FrameOriginsScreen } from "./frame-origins-screen";

export const metadata = { title: "Frame origins" };

export default function FrameOriginsPage() {
  return (
    <section>
      <PageHeader title="Frame origins" />
      <AccessNav />
      <p className="hint">
        Origins allowed to frame every owner's embedded enrollment pages, beside each owner's own embedded frame ancestors. A change applies to the next page
        load.
      </p>
      <FrameOriginsScreen />
    </section>
  );
}
