import { notFound } from "next/navigation";
import { enrollmentState } from "@/features/prospects/enrollment-page";

export const dynamic = "force-dynamic";
export const metadata = { title: "Enrollment" };

type Props = {
  params: Promise<{ flow: string; owner: string; source: string; id: string }>;
  searchParams: Promise<{ email?: string; sig?: string; selected_product?: string; cadence?: string }>;
};

/** The renter's landing page for an enrollment link; the enrollment flow itself comes later. */
export default async function EnrollmentPage({ params, searchParams }: Props) {
  const path = await params;
  const query = await searchParams;
  const state = await enrollmentState({
    flow: path.flow,
    owner: decodeURIComponent(path.owner),
    source: decodeURIComponent(path.source),
    id: decodeURIComponent(path.id),
    email: query.email ?? "",
    sig: query.sig ?? "",
    selected_product: query.selected_product,
    cadence: query.cadence,
  });
  // decisions §10 Links: a link failing its signature or email check answers 404 (./not-found.tsx).
  if (state.kind === "invalid") notFound();
  return (
    <main className="home">
      <h1>{state.firstName ? `Welcome, ${state.firstName}` : "Welcome"}</h1>
      <p data-testid="prospect-status">
        Your application status: <strong>{state.status}</strong>
      </p>
      <p>
        {state.eligible
          ? `You can enroll in ${state.guarantee ? "lease guarantee coverage" : "a deposit alternative"}. Enrollment opens here shortly.`
          : "Enrollment is not available for this lease yet."}
      </p>
      <p className="muted">Flow: {state.flow === "embedded" ? "embedded in your leasing portal" : "full page"}</p>
    </main>
  );
}
