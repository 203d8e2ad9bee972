import type { ChooseView, DetailsView, FlowView, PayView, QuoteView, ResultView } from "@/features/enrollment/flow/contract";
import { AutoRefresh } from "./auto-refresh";
import { ChangeChoice } from "./change-choice";
import { ChooseForm } from "./choose-form";
import { DetailsForm } from "./details-form";
import styles from "./enroll.module.css";
import { formatUsd, optionChoices, preselectedValue } from "./format";
import { PayForm } from "./pay-form";
import { PostResult } from "./post-result";
import { StagingHint, StepFrame } from "./step-frame";
import { StepHeading } from "./step-heading";
import { StripePayForm } from "./stripe-pay-form";
import type { StepAction } from "./use-step-form";

/** The page's server actions, each bound to the link (see the page's `actions.ts`). */
export type FlowActions = {
  submitDetails: StepAction;
  chooseProduct: StepAction;
  changeChoice: StepAction;
  payEnrollment: StepAction;
  /** Step 4 through Stripe (decisions §18): the Payment Element's token. */
  payWithToken: StepAction;
};

/** The current step of an enrollment, as the flow service described it. */
export function FlowStep({ view, actions }: { view: FlowView; actions: FlowActions }) {
  switch (view.step) {
    case "details":
      return <DetailsStep view={view} action={actions.submitDetails} />;
    case "quote":
      return <QuoteStep view={view} />;
    case "choose":
      return <ChooseStep view={view} action={actions.chooseProduct} />;
    case "pay":
      return <PayStep view={view} pay={view.stripe ? actions.payWithToken : actions.payEnrollment} change={actions.changeChoice} />;
    case "result":
      return <ResultStep view={view} />;
  }
}

export function DetailsStep({ view, action }: { view: DetailsView; action: StepAction }) {
  return (
    <StepFrame view={view}>
      <StepHeading step="details">Confirm your details</StepHeading>
      <p className={styles.lead}>
        {view.firstName ? `Hi ${view.firstName}, check` : "Check"} the details your leasing office sent us, then accept the disclosures to see your{" "}
        {view.guarantee ? "lease guarantee" : "deposit"} options.
      </p>
      {view.staging ? (
        <StagingHint>
          An email ending in <code>+decline</code> is declined by underwriting; <code>+blocked</code> stops at the identity check.
        </StagingHint>
      ) : null}
      <DetailsForm action={action} values={view.values} disclosures={view.disclosures} />
    </StepFrame>
  );
}

export function QuoteStep({ view }: { view: QuoteView }) {
  return (
    <StepFrame view={view}>
      <StepHeading step="quote">Checking your options</StepHeading>
      <div role="status" className={styles.waiting}>
        <span className={styles.spinner} aria-hidden="true" />
        <p>We're checking which options you qualify for. This usually takes a few seconds; this page updates by itself.</p>
      </div>
      <AutoRefresh />
    </StepFrame>
  );
}

export function ChooseStep({ view, action }: { view: ChooseView; action: StepAction }) {
  const choices = optionChoices(view.offers);
  return (
    <StepFrame view={view}>
      <StepHeading step="choose">Choose your option</StepHeading>
      <p className={styles.lead}>Pick how you'd like to cover your security deposit. You can review it before you pay.</p>
      <ChooseForm action={action} choices={choices} preselected={preselectedValue(choices, view.selected)} />
    </StepFrame>
  );
}

export function PayStep({ view, pay, change }: { view: PayView; pay: StepAction; change: StepAction }) {
  const amount = formatUsd(view.amountDueCents);
  return (
    <StepFrame view={view} payment={view.stripe ? { processor: "stripe", intentId: view.stripe.intentId } : undefined}>
      <StepHeading step="pay">Payment</StepHeading>
      <div className={styles.summary}>
        <p className={styles.summaryLine}>
          <span>{view.summary}</span>
          <strong>{amount}</strong>
        </p>
        <p className={styles.muted}>{view.cadence === "monthly" ? `Due today, then ${amount} each month.` : "Due today."}</p>
      </div>
      {view.paymentAvailable && view.stripe ? (
        <StripePayForm action={pay} payLabel={`Pay ${amount}`} stripe={view.stripe} />
      ) : view.paymentAvailable ? (
        <>
          {view.staging ? (
            <StagingHint>
              Card <code>4242 4242 4242 4242</code> pays, <code>4000 0000 0000 0002</code> is declined; any future expiry date and any 3-digit code. Nothing is
              charged.
            </StagingHint>
          ) : null}
          <PayForm action={pay} payLabel={`Pay ${amount}`} attempt={view.attempt} />
        </>
      ) : (
        <p role="status" className={styles.notice}>
          {view.unavailableMessage ?? "Payment isn't available yet. Your choice is saved: come back to this link later to finish your enrollment."}
        </p>
      )}
      <ChangeChoice action={change} />
    </StepFrame>
  );
}

const RESULT_TITLES = { declined: "We couldn't offer coverage", blocked: "We can't continue your enrollment" } as const;

export function ResultStep({ view }: { view: ResultView }) {
  const cash = view.state === "completed" && view.productType === "cash_deposit";
  const title = view.state === "completed" ? (cash ? "Your deposit is recorded" : "You're covered") : RESULT_TITLES[view.state];
  const awaitingDocuments = view.state === "completed" && !!view.policyNumber && !view.documentsUrl;
  return (
    <StepFrame view={view} state={view.state}>
      <div className={styles.result} data-tone={view.state === "completed" ? "good" : "bad"}>
        <span className={styles.resultIcon} aria-hidden="true">
          {view.state === "completed" ? "✓" : "!"}
        </span>
        <StepHeading step="result">{title}</StepHeading>
        <p className={styles.lead}>{view.message}</p>
      </div>
      {view.state === "completed" ? (
        <dl className={styles.facts}>
          {view.policyNumber ? (
            <div>
              <dt>Policy number</dt>
              <dd data-testid="policy-number">{view.policyNumber}</dd>
            </div>
          ) : null}
          {view.coverageAmountCents !== undefined ? (
            <div>
              <dt>{cash ? "Deposit" : "Coverage"}</dt>
              <dd>{formatUsd(view.coverageAmountCents)}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {view.documentsUrl ? (
        <p>
          <a href={view.documentsUrl} className={styles.primaryLink} download>
            Download your policy documents
          </a>
        </p>
      ) : null}
      {awaitingDocuments ? (
        <>
          <p role="status" className={styles.muted}>
            Your policy documents are being prepared; a download link appears here in a moment.
          </p>
          <AutoRefresh />
        </>
      ) : null}
      {view.flow === "embedded" ? <PostResult state={view.state} messageOrigins={view.messageOrigins} /> : null}
    </StepFrame>
  );
}
