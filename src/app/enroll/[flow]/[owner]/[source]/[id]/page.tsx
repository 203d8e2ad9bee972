import { notFound, redirect } from "next/navigation";
import type { LinkParams } from "@/features/enrollment/flow/contract";
import { loadEnrollment } from "@/features/enrollment/flow/service";
import { FlowStep } from "../../../../_components/steps";
import { changeChoiceAction, chooseProductAction, payEnrollmentAction, payWithTokenAction, submitDetailsAction } from "./actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Enroll in deposit coverage" };

type Props = {
  params: Promise<{ flow: string; owner: string; source: string; id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

/**
 * The renter's enrollment link (spec Enrollment flow; decisions §10). One URL for every step: the
 * flow service says which step the link is at (state is server-side, so reopening resumes) and the
 * step's form posts a server action to this same page.
 */
export default async function EnrollmentPage({ params, searchParams }: Props) {
  const link = linkParams(await params, await searchParams);
  const loaded = await loadEnrollment(link);
  // decisions §10 Links: a link failing its signature or email check answers 404 (./not-found.tsx).
  if (loaded.kind === "invalid") notFound();
  const view = loaded.view;
  // decisions §10 Redirect: an expedited flow at its terminal state goes to the allowed redirect_url.
  if (view.step === "result" && view.redirectTo) redirect(view.redirectTo);
  const actions = {
    submitDetails: submitDetailsAction.bind(null, link),
    chooseProduct: chooseProductAction.bind(null, link),
    changeChoice: changeChoiceAction.bind(null, link),
    payEnrollment: payEnrollmentAction.bind(null, link),
    payWithToken: payWithTokenAction.bind(null, link),
  };
  return <FlowStep view={view} actions={actions} />;
}

function linkParams(path: { flow: string; owner: string; source: string; id: string }, query: Record<string, string | string[] | undefined>): LinkParams {
  const one = (name: string) => {
    const value = query[name];
    return Array.isArray(value) ? value[0] : value;
  };
  return {
    flow: path.flow,
    owner: decodeURIComponent(path.owner),
    source: decodeURIComponent(path.source),
    id: decodeURIComponent(path.id),
    email: one("email"),
    sig: one("sig"),
    selected_product: one("selected_product"),
    cadence: one("cadence"),
    redirect_url: one("redirect_url"),
    payment_intent: one("payment_intent"),
  };
}
