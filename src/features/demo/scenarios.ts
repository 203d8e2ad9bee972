import { randomToken } from "../../server/secrets";

/**
 * The renters a visitor of /demo can push (docs/decisions.md, Demo page). The staging magic values
 * of decisions §10 decide the outcome: an email local part ending in `+decline` is declined by
 * underwriting, `+blocked` ends at the identity check; a guarantee renter (`guarantor_coverage`)
 * lives in the demo's guarantee building.
 */
export const DEMO_SCENARIOS = [
  { id: "standard", label: "Standard renter", hint: "Quoted, chooses a product, pays (card 4242 4242 4242 4242): completed." },
  { id: "decline", label: "Declined renter (+decline email)", hint: "Underwriting declines every product: declined." },
  { id: "blocked", label: "Blocked renter (+blocked email)", hint: "The identity check stops the enrollment: blocked." },
  { id: "guarantee", label: "Guarantee renter", hint: "Lease guarantee coverage instead of a deposit product." },
] as const;

export type DemoScenario = (typeof DEMO_SCENARIOS)[number]["id"];

export function isDemoScenario(value: unknown): value is DemoScenario {
  return DEMO_SCENARIOS.some((scenario) => scenario.id === value);
}

/** Prospects made by the demo page carry this prefix, so the page can offer them again ("pick"). */
export const DEMO_PROSPECT_PREFIX = "demo-page-";

export type DemoRoster = {
  source: string;
  property_external_id: string;
  unit_external_ids: string[];
  guarantee_property_external_id?: string;
  guarantee_unit_external_id?: string;
};

/**
 * A complete prospect body (spec Prospect, Completeness; docs/eligibility.md) for `scenario`, on the
 * demo building, with a lease starting on the first of next month so underwriting sees a current
 * lease. Every call makes a new renter: a new `source_prospect_id` and a new email.
 */
export function demoProspectBody(
  scenario: DemoScenario,
  roster: DemoRoster,
  now = new Date(),
  tag = randomToken(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "x"),
) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const end = new Date(Date.UTC(start.getUTCFullYear() + 1, start.getUTCMonth(), 0));
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const suffix = scenario === "decline" ? "+decline" : scenario === "blocked" ? "+blocked" : "";
  const guarantee = scenario === "guarantee";
  if (guarantee && !(roster.guarantee_property_external_id && roster.guarantee_unit_external_id)) return undefined;
  const base = {
    source: roster.source,
    source_prospect_id: `${DEMO_PROSPECT_PREFIX}${scenario}-${tag}`,
    terms_accepted_at: `${now.toISOString().slice(0, 19)}Z`,
    email: `demo.${tag}${suffix}@example.com`,
    phone: "5125550123",
    first_name: "Dana",
    last_name: "Demo",
    birthdate: "1992-06-15",
    lease_start_date: day(start),
    lease_end_date: day(end),
    monthly_rent_cents: 185000,
    screening_result: "approved",
    employment_status: "employed",
    yearly_income: 96000,
    has_ssn: true,
  };
  if (guarantee) {
    // spec Prospect status rules 3: a guarantee prospect carries no deposit amount.
    return {
      ...base,
      guarantor_coverage: true,
      property: { external_system_id: roster.guarantee_property_external_id },
      unit: { external_system_id: roster.guarantee_unit_external_id },
    };
  }
  return {
    ...base,
    deposit_amount_cents: 185000,
    property: { external_system_id: roster.property_external_id },
    unit: { external_system_id: roster.unit_external_ids[1] ?? roster.unit_external_ids[0] },
  };
}
