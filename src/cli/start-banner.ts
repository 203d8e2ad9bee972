import { framingPlan } from "../features/demo/origins";
import type { Config } from "../server/config";
import type { DemoCredentials } from "./demo-seed";

/** The renter of the banner's example; re-posting it updates the same prospect (spec Prospect rules 1). */
export const DEMO_PROSPECT_ID = "demo-renter-1";

/**
 * A prospect body carrying every field completeness needs on a standard source (spec Prospect,
 * Completeness; docs/eligibility.md), naming the demo building and unit by `external_system_id`
 * (spec Prospect rules 4-5). The lease starts on the first of next month so underwriting sees a
 * current lease whenever the banner is printed.
 */
export function demoProspectPayload(demo: Pick<DemoCredentials, "source" | "property_external_id" | "unit_external_ids">, now = new Date()) {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  const end = new Date(Date.UTC(start.getUTCFullYear() + 1, start.getUTCMonth(), 0));
  const day = (date: Date) => date.toISOString().slice(0, 10);
  return {
    source: demo.source,
    source_prospect_id: DEMO_PROSPECT_ID,
    terms_accepted_at: `${now.toISOString().slice(0, 19)}Z`,
    email: "rita.renter@example.com",
    phone: "5125550123",
    first_name: "Rita",
    last_name: "Renter",
    birthdate: "1992-06-15",
    lease_start_date: day(start),
    lease_end_date: day(end),
    monthly_rent_cents: 185000,
    deposit_amount_cents: 185000,
    screening_result: "approved",
    employment_status: "employed",
    yearly_income: 96000,
    has_ssn: true,
    property: { external_system_id: demo.property_external_id },
    unit: { external_system_id: demo.unit_external_ids[0] },
  };
}

/**
 * What `npm start` prints once the service is healthy: where things are, and with a seeded demo
 * (staging) its credentials and a first call. Without one (production: decisions §14, nothing secret
 * is ever printed) only the addresses and how the first console user is made.
 */
export function startBanner(
  config: Pick<Config, "publicBaseUrl" | "partnerBaseUrl"> & Partial<Pick<Config, "enrollmentBaseUrl" | "appEnv" | "smtpUrl">>,
  demo: DemoCredentials | undefined,
  now = new Date(),
): string {
  const api = config.partnerBaseUrl;
  if (!demo)
    return `
Partner Integration Service is running at ${config.publicBaseUrl}
  Partner API     ${api}   reference: ${api}/docs
  Console         ${config.publicBaseUrl}/console   (no demo seeded; first user: npm run admin -- user create --email E --password P --role operator)
${renterEmailsLine(config)}
Press Ctrl-C to stop.
`;
  // decisions §13: the demo page (staging only), on another origin than the links where one is known.
  const plan = framingPlan(config.publicBaseUrl, config.enrollmentBaseUrl ?? `${config.publicBaseUrl}/enroll`);
  const demoPage =
    config.appEnv === "production"
      ? ""
      : `\n  Demo page       ${plan.alternativePage ?? `${config.publicBaseUrl}/demo`}   (a renter enrolling in the embedded flow, live)`;
  const tokenBody = JSON.stringify({ grant_type: "client_credentials", client_id: demo.client_id, client_secret: demo.client_secret, audience: demo.audience });
  const prospects = `${api}/partners/${demo.owner_slug}/prospects`;
  return `
Partner Integration Service is running at ${config.publicBaseUrl}
  Partner API     ${api}   reference: ${api}/docs
  Demo partner    client_id=${demo.client_id}
                  client_secret=${demo.client_secret}
                  audience=${demo.audience}
  Demo owner      owner_slug=${demo.owner_slug}   source=${demo.source}   (activated)
                  building=${demo.property_external_id}   units=${demo.unit_external_ids.join(",")}
  Console         ${config.publicBaseUrl}/console   email=${demo.console_email}   password=${demo.console_password}${demoPage}
${renterEmailsLine(config, config.appEnv !== "production")}

Try it: get a token, push a renter, then read it back.
  TOKEN=$(curl -s -X POST ${api}/token -H 'Content-Type: application/json' \\
    -d '${tokenBody}' \\
    | node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).access_token')
  curl -s -X POST ${prospects} -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \\
    -d '${JSON.stringify({ prospect: demoProspectPayload(demo, now) })}'
  curl -s ${prospects}/${demo.source}/${DEMO_PROSPECT_ID} -H "Authorization: Bearer $TOKEN"
The prospect answers "status": "processing" at first; within seconds GET shows "ready" with its enrollment_url.
Press Ctrl-C to stop.
`;
}

/**
 * Where renter messages are (decisions §19): the relay they go through (its host only: the URL may
 * carry a password), or, without `SMTP_URL`, kept in the console's Messages screen and the demo page.
 */
export function renterEmailsLine(config: Pick<Config, "publicBaseUrl"> & Partial<Pick<Config, "smtpUrl">>, demoPage = false): string {
  const screen = `${config.publicBaseUrl}/console/messages`;
  if (config.smtpUrl) {
    const relay = new URL(config.smtpUrl);
    return `  Renter emails   sent through ${relay.protocol}//${relay.host}   (each one in ${screen})`;
  }
  return `  Renter emails   kept, not sent (no SMTP_URL): read them at ${screen}${demoPage ? " and on the demo page" : ""}`;
}
