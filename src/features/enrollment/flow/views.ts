import { getConfig } from "../../../server/config";
import type { Tx } from "../../../server/db/client";
import { randomToken } from "../../../server/secrets";
import { paymentPortFor } from "../../payments/port-for";
import { processorFor } from "../../payments/processor-for";
import { archivesOfPolicy } from "../../policies/documents/storage";
import type { Policy } from "../../policies/policies.table";
import type { Application, ApplicationProduct, Cadence } from "../applications/applications.table";
import { plainOrigin } from "../framing/frame-ancestors";
import { frameAncestorListsOf } from "../framing/framing-headers";
import type { ChooseView, DetailsView, FlowContext, FlowView, LeaseSummary, OfferView, PayView, ResultView, TerminalState } from "./contract";
import { DISCLOSURES } from "./disclosures";
import { BLOCKED_REASONS, type BlockedReason, formatUsd, RESULT_MESSAGES } from "./messages";
import { redirectTarget } from "./redirect";
import { type EnrollmentRecord, policyByNumber } from "./state";

/** What the views read from the deployment (decisions §10: staging magic values; production refuses payment). */
export type FlowEnv = { appEnv: "staging" | "production"; paymentAvailable: boolean };

export function flowEnv(): FlowEnv {
  const config = getConfig();
  return { appEnv: config.appEnv, paymentAvailable: processorFor(config).name !== "none" || paymentPortFor(config) !== undefined };
}

/** The application the renter is on: the open one (a canceled one is history). */
export function openApplication(record: EnrollmentRecord): Application | null {
  return record.application?.status === "created" ? record.application : null;
}

/** LeaseSummary: owner, building address as stored on one line, unit, lease dates, rent. */
export function leaseSummary(record: EnrollmentRecord): LeaseSummary {
  const { property, unit, prospect, owner } = record;
  return {
    ownerName: owner.name,
    address: property ? `${property.addressLineOne}, ${property.city}, ${property.state} ${property.zip}` : null,
    unitLabel: unit?.name ?? null,
    leaseStartDate: prospect.leaseStartDate,
    leaseEndDate: prospect.leaseEndDate,
    monthlyRentCents: prospect.monthlyRentCents,
  };
}

function contextOf(record: EnrollmentRecord, env: FlowEnv): FlowContext {
  return {
    flow: record.link.flow,
    lease: leaseSummary(record),
    firstName: record.application?.applicant?.firstName ?? record.prospect.firstName ?? null,
    staging: env.appEnv === "staging",
  };
}

/** decisions §10 Terminal states: `blocked` when the renter cannot go on; undefined when they can. */
export function blockedReasonOf(record: EnrollmentRecord): BlockedReason | undefined {
  const application = openApplication(record);
  if (application?.blockedReason) return application.blockedReason as BlockedReason;
  if (!record.owner.purchaseFlowEnabled) return BLOCKED_REASONS.purchaseFlowOff;
  if (record.property && !record.property.active) return BLOCKED_REASONS.buildingInactive;
  if (record.prospect.status !== "ready" || record.prospect.eligibility?.eligible !== true) return BLOCKED_REASONS.notEligible;
  return undefined;
}

/** The prospect's `latest_coverage` when it still covers the unit (a canceled or expired policy does not). */
function standingCoverage(record: EnrollmentRecord): { type: string; coverageAmountCents?: number; policyNumber?: string } | undefined {
  const coverage = record.prospect.latestCoverage;
  if (!coverage || typeof coverage.type !== "string") return undefined;
  if (coverage.status === "canceled" || coverage.status === "expired") return undefined;
  return {
    type: coverage.type,
    ...(typeof coverage.coverage_amount_cents === "number" ? { coverageAmountCents: coverage.coverage_amount_cents } : {}),
    ...(typeof coverage.policy_number === "string" ? { policyNumber: coverage.policy_number } : {}),
  };
}

/** The offers of the stored quote: ≤ 2 deposit entries, or the guarantee alone (decisions §10 step (3)). */
export function offersOf(record: EnrollmentRecord): OfferView[] {
  const quote = openApplication(record)?.quote;
  if (quote?.status !== "quoted") return [];
  if (record.prospect.guarantorCoverage) {
    const g = quote.guarantee;
    return g
      ? [
          {
            productType: "renter_guarantee_insurance",
            coverageAmountCents: g.coverageAmountCents,
            upfrontPremiumCents: g.upfrontPremiumCents,
            monthlyPremiumCents: g.monthlyPremiumCents,
            productVersion: g.productVersion,
          },
        ]
      : [];
  }
  return quote.offeredProducts.slice(0, 2).map(
    (offer): OfferView =>
      offer.product_type === "security_deposit_insurance"
        ? {
            productType: "security_deposit_insurance",
            upfrontPremiumCents: offer.upfront_premium_cents,
            monthlyPremiumCents: offer.monthly_premium_cents,
            coverageAmountCents: record.prospect.effectiveCoverageAmountCents ?? 0,
            percentSavings: quote.percentSavings ?? null,
          }
        : { productType: "cash_deposit", cashDepositAmountCents: offer.cash_deposit_amount_cents },
  );
}

/** A valid choice among the offers: insurance with a cadence, a cash deposit without. */
export type Choice = { productType: ApplicationProduct; cadence: Cadence | null };

/** What is charged now for a choice: the upfront premium, the first monthly premium, or the cash deposit. */
export function amountDueOf(offers: OfferView[], choice: Choice): number | undefined {
  const offer = offers.find((o) => o.productType === choice.productType);
  if (!offer) return undefined;
  if (offer.productType === "cash_deposit") return offer.cashDepositAmountCents;
  if (!choice.cadence) return undefined;
  return choice.cadence === "upfront" ? offer.upfrontPremiumCents : offer.monthlyPremiumCents;
}

/** The option's name as the choose step labels it (docs: ui-contract). */
export function choiceLabel(choice: Choice): string {
  const paid = choice.cadence === "monthly" ? "paid monthly" : "paid upfront";
  if (choice.productType === "cash_deposit") return "Cash deposit";
  if (choice.productType === "renter_guarantee_insurance") return `Lease guarantee, ${paid}`;
  return `Deposit insurance, ${paid}`;
}

function detailsView(record: EnrollmentRecord, env: FlowEnv): DetailsView {
  const entered = record.application?.applicant;
  const { prospect } = record;
  return {
    ...contextOf(record, env),
    step: "details",
    values: {
      firstName: entered?.firstName ?? prospect.firstName ?? "",
      lastName: entered?.lastName ?? prospect.lastName ?? "",
      email: prospect.email ?? record.link.email,
      phone: entered?.phone ?? prospect.phone ?? "",
      birthdate: entered?.birthdate ?? prospect.birthdate ?? "",
    },
    disclosures: [...DISCLOSURES],
    guarantee: prospect.guarantorCoverage,
  };
}

/** decisions §10 Links: the link's product, or the earlier choice, preselects — when it is offered. */
export function chooseView(record: EnrollmentRecord, env: FlowEnv): ChooseView {
  const application = openApplication(record);
  const offers = offersOf(record);
  const offered = (productType: string | null | undefined) => offers.some((o) => o.productType === productType);
  const candidates: Array<{ productType?: string | null; cadence?: string | null }> = [
    ...(application?.submittedAt ? [{ productType: application.productType, cadence: application.cadence }] : []),
    { productType: record.link.selectedProduct, cadence: record.link.cadence },
    { productType: application?.productType, cadence: application?.cadence },
    ...(offers.length === 1 ? [{ productType: offers[0].productType }] : []),
  ];
  const pick = candidates.find((c) => offered(c.productType));
  const view: ChooseView = { ...contextOf(record, env), step: "choose", offers };
  if (!pick?.productType) return view;
  const productType = pick.productType as OfferView["productType"];
  const cadence = productType !== "cash_deposit" && (pick.cadence === "upfront" || pick.cadence === "monthly") ? pick.cadence : undefined;
  return { ...view, selected: { productType, ...(cadence ? { cadence } : {}) } };
}

function payView(record: EnrollmentRecord, env: FlowEnv, application: Application): PayView | undefined {
  const choice: Choice = { productType: application.productType as ApplicationProduct, cadence: application.cadence };
  const amountDueCents = amountDueOf(offersOf(record), choice);
  if (amountDueCents === undefined) return undefined;
  return {
    ...contextOf(record, env),
    step: "pay",
    productType: choice.productType,
    cadence: choice.productType === "cash_deposit" ? null : choice.cadence,
    amountDueCents,
    summary: choiceLabel(choice),
    paymentAvailable: env.paymentAvailable,
    attempt: randomToken(16),
  };
}

/** The owner's `embedded_frame_ancestors` ∪ the operator's frame origins, normalized (embedded flow only). */
async function messageOriginsOf(db: Tx, record: EnrollmentRecord): Promise<string[]> {
  if (record.link.flow !== "embedded") return [];
  const lists = await frameAncestorListsOf(db, record.owner.slug);
  const origins = new Set<string>();
  for (const value of [...(lists?.owner ?? []), ...(lists?.operator ?? [])]) {
    const origin = typeof value === "string" ? plainOrigin(value) : undefined;
    if (origin) origins.add(origin);
  }
  return [...origins].sort();
}

async function resultView(
  db: Tx,
  record: EnrollmentRecord,
  env: FlowEnv,
  state: TerminalState,
  details: Pick<ResultView, "message" | "policyNumber" | "documentsUrl" | "coverageAmountCents" | "productType">,
): Promise<ResultView> {
  return {
    ...contextOf(record, env),
    step: "result",
    state,
    ...details,
    redirectTo: record.link.flow === "expedited" ? redirectTarget(record.link.redirectUrl, record.source.redirectDomains, state, env.appEnv) : null,
    messageOrigins: await messageOriginsOf(db, record),
  };
}

async function policyDetails(db: Tx, policy: Policy) {
  const [archive] = await archivesOfPolicy(db, policy.id);
  return {
    productType: policy.productType === "service_deposit" ? undefined : policy.productType,
    policyNumber: policy.policyNumber,
    coverageAmountCents: policy.coverageAmountCents,
    ...(archive ? { documentsUrl: archive.url } : {}),
  };
}

/** The completed result, when the renter bought coverage here or is already covered for the unit. */
async function completedView(db: Tx, record: EnrollmentRecord, env: FlowEnv): Promise<ResultView | undefined> {
  if (record.policy) {
    const details = await policyDetails(db, record.policy);
    return resultView(db, record, env, "completed", { message: RESULT_MESSAGES.coveredPolicy(record.policy.policyNumber), ...details });
  }
  if (record.cashDeposit) {
    const amount = record.cashDeposit.amountCents;
    return resultView(db, record, env, "completed", {
      message: RESULT_MESSAGES.coveredCashDeposit(formatUsd(amount)),
      productType: "cash_deposit",
      coverageAmountCents: amount,
    });
  }
  const standing = standingCoverage(record);
  if (!standing) return undefined;
  const policy = standing.policyNumber ? await policyByNumber(db, standing.policyNumber) : undefined;
  if (policy) return resultView(db, record, env, "completed", { message: RESULT_MESSAGES.coveredAlready, ...(await policyDetails(db, policy)) });
  return resultView(db, record, env, "completed", {
    message: RESULT_MESSAGES.coveredAlready,
    ...(standing.type === "cash_deposit" ? { productType: "cash_deposit" as const } : {}),
    ...(standing.coverageAmountCents !== undefined ? { coverageAmountCents: standing.coverageAmountCents } : {}),
    ...(standing.policyNumber ? { policyNumber: standing.policyNumber } : {}),
  });
}

/**
 * decisions §10 Resume: the step a link's enrollment is at, computed from server-side state only.
 * Order: bought (or already covered) → identity check failed → declined → blocked → the step reached.
 */
export async function currentView(db: Tx, record: EnrollmentRecord, env: FlowEnv = flowEnv()): Promise<FlowView> {
  const completed = await completedView(db, record, env);
  if (completed) return completed;
  const application = openApplication(record);
  const blocked = blockedReasonOf(record);
  if (blocked === BLOCKED_REASONS.identityCheckFailed) return resultView(db, record, env, "blocked", { message: RESULT_MESSAGES.blocked[blocked] });
  if (application?.outcome === "declined") return resultView(db, record, env, "declined", { message: RESULT_MESSAGES.declined });
  if (blocked) return resultView(db, record, env, "blocked", { message: RESULT_MESSAGES.blocked[blocked] });
  if (!application || application.step === "details") return detailsView(record, env);
  if (application.outcome === null) return { ...contextOf(record, env), step: "quote" };
  if (application.step === "pay" && application.submittedAt && application.productType) {
    const pay = payView(record, env, application);
    if (pay) return pay;
  }
  return chooseView(record, env);
}
