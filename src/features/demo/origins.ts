/**
 * Where the /demo page frames the flow from (docs/decisions.md, Demo page). The enrollment links are
 * signed for the host `ENROLLMENT_BASE_URL` names and are never rewritten; the page itself moves
 * instead: on the same origin as the links, it offers the same page on the other loopback name
 * (`localhost` ↔ `127.0.0.1`, both frame origins of the demo seed in staging), which a browser
 * treats as another site.
 */
export type FramingPlan = {
  pageOrigin: string;
  enrollmentOrigin: string;
  crossOrigin: boolean;
  /** The /demo page on another origin than the enrollment host, when one is known. */
  alternativePage: string | null;
};

const LOOPBACK_SWAP: Record<string, string> = { localhost: "127.0.0.1", "127.0.0.1": "localhost" };

export function framingPlan(pageOrigin: string, enrollmentBaseUrl: string): FramingPlan {
  const enrollmentOrigin = new URL(enrollmentBaseUrl).origin;
  const page = new URL(pageOrigin);
  const crossOrigin = page.origin !== enrollmentOrigin;
  let alternativePage: string | null = null;
  if (!crossOrigin) {
    const swapped = LOOPBACK_SWAP[page.hostname];
    if (swapped) {
      const other = new URL(page.origin);
      other.hostname = swapped;
      alternativePage = `${other.origin}/demo`;
    }
  }
  return { pageOrigin: page.origin, enrollmentOrigin, crossOrigin, alternativePage };
}
