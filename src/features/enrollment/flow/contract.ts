import type { FieldErrors } from "../../../server/errors";
import type { Cadence } from "../applications/applications.table";

/**
 * The renter enrollment flow's contract (decisions §10), between the flow service
 * (`./service.ts`, the domain: what step a link is at and what each step's submission does) and the
 * pages (`src/app/enroll/...`, server-rendered, with server actions calling the service). State
 * lives server-side (the application row and its `step`), so reopening a link — any tab, any device —
 * lands on the same step with what was entered. No cookie is needed: the signed link identifies the
 * renter.
 *
 * Every function takes the raw link (`LinkParams`: path segments and query as the page received
 * them). A link failing its signature or email check answers `{ kind: "invalid" }` from
 * `loadEnrollment` and throws `errors.notFound` from the actions (the page renders 404, changes
 * nothing). Actions throw `AppError` `invalid` with field errors for the renter's mistakes (the page
 * shows each beside its field and keeps what was typed) and `conflict` when the step is no longer
 * the current one (the page simply re-renders the current step).
 */

/** The link as the page received it: path segments decoded, query values raw (undefined when absent). */
export type LinkParams = {
  flow: string;
  owner: string;
  source: string;
  id: string;
  email?: string;
  sig?: string;
  selected_product?: string;
  cadence?: string;
  /** Expedited flow only: followed at a terminal state when allowed (decisions §10 Redirect). */
  redirect_url?: string;
  /** Stripe's return to the link after 3-D Secure (decisions §18): the intent to retrieve, never trusted as paid. */
  payment_intent?: string;
};

/** What the Payment Element needs (decisions §18), when the processor is Stripe. */
export type StripePayment = {
  publishableKey: string;
  /** `pi_…`: the pay `<main>`'s `data-payment-intent`. */
  intentId: string;
  clientSecret: string;
  /** The flow link, where 3-D Secure returns. */
  returnUrl: string;
  /** The last attempt's decline, shown above the form (a return from a failed authentication). */
  lastError?: string;
};

export type FlowKind = "embedded" | "expedited";
export type TerminalState = "completed" | "declined" | "blocked";
export type StepName = "details" | "quote" | "choose" | "pay" | "result";

/** What every step shows about the lease (owner display name, building address as stored, unit). */
export type LeaseSummary = {
  ownerName: string;
  /** One line, e.g. "1200 Barton Springs Rd, Austin, TX 78704"; null when the prospect has no building. */
  address: string | null;
  unitLabel: string | null;
  leaseStartDate: string | null;
  leaseEndDate: string | null;
  monthlyRentCents: number | null;
};

/** Common to every view. */
export type FlowContext = {
  flow: FlowKind;
  lease: LeaseSummary;
  /** The renter's first name for the greeting, when known. */
  firstName: string | null;
  /** True when the deployment is staging (the pages show the staging magic values hint). */
  staging: boolean;
};

export type Disclosure = { id: string; title: string; body: string };

/** Step 1: review and complete the details the partner pushed, accept the disclosures. */
export type DetailsView = FlowContext & {
  step: "details";
  /** Pre-filled from the prospect (or from what the renter entered before). Email is fixed: it is in the link. */
  values: { firstName: string; lastName: string; email: string; phone: string; birthdate: string };
  disclosures: Disclosure[];
  /** The product the renter will be quoted for: deposit products or the guarantee. */
  guarantee: boolean;
};

/** Step 2: underwriting runs as a job; the page waits (refreshes itself) until the outcome is stored. */
export type QuoteView = FlowContext & { step: "quote" };

export type OfferView =
  | {
      productType: "security_deposit_insurance";
      upfrontPremiumCents: number;
      monthlyPremiumCents: number;
      coverageAmountCents: number;
      percentSavings: number | null;
    }
  | { productType: "cash_deposit"; cashDepositAmountCents: number }
  | {
      productType: "renter_guarantee_insurance";
      coverageAmountCents: number;
      upfrontPremiumCents: number;
      monthlyPremiumCents: number;
      productVersion: string;
    };

/** Step 3: choose among the offered products (≤ 2 deposit entries, or the guarantee alone). */
export type ChooseView = FlowContext & {
  step: "choose";
  offers: OfferView[];
  /** From a product link (`selected_product`, `cadence`) or an earlier choice: preselects, nothing more. */
  selected?: { productType: OfferView["productType"]; cadence?: Cadence };
};

/** Step 4: pay for the submitted choice. */
export type PayView = FlowContext & {
  step: "pay";
  productType: OfferView["productType"];
  cadence: Cadence | null;
  /** Charged now: the upfront premium, the first monthly premium, or the cash deposit. */
  amountDueCents: number;
  /** A short line describing what is bought, e.g. "Deposit insurance, paid monthly". */
  summary: string;
  /** False when no processor takes this payment: the page explains (`unavailableMessage`), no card form. */
  paymentAvailable: boolean;
  /** Why payment is not available, when it is not the general "not yet" (a cash deposit through Stripe). */
  unavailableMessage?: string;
  /** Stripe (decisions §18): the Payment Element's intent; absent with the simulated card form. */
  stripe?: StripePayment;
  /** Stripe: the bank's page the browser goes to next (3-D Secure), after a confirmation asked for it. */
  nextActionUrl?: string;
  /**
   * A fresh nonce per render, for the form's hidden `attempt` field (`PaymentInput.attempt`): a double
   * submit of one form is charged once; a retry after a decline renders a new one.
   */
  attempt: string;
};

/** Step 5: a terminal state. */
export type ResultView = FlowContext & {
  step: "result";
  state: TerminalState;
  /** One or two sentences for the renter (why blocked/declined, what was bought). */
  message: string;
  /** Completed: what was bought (a cash deposit has no policy number: "Your deposit is recorded"). */
  productType?: OfferView["productType"];
  policyNumber?: string;
  /** The policy's document archive once built (decisions §11), else undefined (the page may refresh). */
  documentsUrl?: string;
  coverageAmountCents?: number;
  /**
   * Expedited flow: where to send the browser (`redirect_url` + `status=<state>`), only when the
   * link's `redirect_url` is allowed for the source (decisions §10 Redirect); else null.
   */
  redirectTo: string | null;
  /**
   * Embedded flow: the origins the result may be posted to (the owner's frame ancestors ∪ the
   * operator's frame origins). The page posts `state` (a plain string) to the framing origin
   * (`location.ancestorOrigins[0]`, else the referrer's origin) only when it is in this list; never "*".
   */
  messageOrigins: string[];
};

export type FlowView = DetailsView | QuoteView | ChooseView | PayView | ResultView;
export type LoadResult = { kind: "invalid" } | { kind: "view"; view: FlowView };

/** Step 1 submission (form field names as below). `acceptDisclosures` is the checkbox ("on" when ticked). */
export type DetailsInput = { firstName: string; lastName: string; phone: string; birthdate: string; acceptDisclosures: boolean };
/** Step 3 submission. */
export type ChoiceInput = { productType: string; cadence?: string };
/** Step 4 submission: the card as typed, and a per-form-render nonce (the idempotency key's tail). */
export type PaymentInput = { number: string; expiry: string; cvc: string; postalCode: string; nameOnCard: string; attempt: string };

/** What an action answers: the next view (after a redirect-free re-render) or the renter's field errors. */
export type ActionResult = { ok: true; view: FlowView } | { ok: false; message: string; fields: FieldErrors; view: FlowView };

/**
 * The flow service's functions (`./service.ts` exports each by this name). The pages call them from
 * server actions; the benchmark and the tests call them directly.
 */
export type FlowService = {
  /** The current step of the link's enrollment (resume), or invalid. Starts nothing, changes nothing. */
  loadEnrollment(link: LinkParams): Promise<LoadResult>;
  /** Step 1 → application (`policy_application.created`) and underwriting job, in one transaction. */
  submitDetails(link: LinkParams, input: DetailsInput): Promise<ActionResult>;
  /** Step 3 → `policy_application.submitted`; the next view is pay. */
  chooseProduct(link: LinkParams, input: ChoiceInput): Promise<ActionResult>;
  /** From pay back to choose (before payment only). */
  changeChoice(link: LinkParams): Promise<ActionResult>;
  /** Step 4: charge through the processor, then the policy (or cash deposit) in one transaction. */
  payEnrollment(link: LinkParams, input: PaymentInput): Promise<ActionResult>;
  /** Step 4 through Stripe (decisions §18): confirms the intent with the browser's token; issues only on `succeeded`. */
  payWithToken(link: LinkParams, input: { token: string }): Promise<ActionResult>;
};
