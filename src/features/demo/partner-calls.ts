import { getConfig } from "../../server/config";
import { signRequest } from "../auth/request-signature";
import type { DemoPartner } from "./credentials";
import { type DemoScenario, demoProspectBody } from "./scenarios";

/**
 * The Partner API gateway as a function of a `Request` (the handler `/api/*` serves, passed in by the
 * page's route: a feature never reaches the composition root). The demo page goes through it like
 * any partner: token exchange, bearer token, signed prospect requests (decisions §6), the same
 * routing, validation and error bodies (docs/decisions.md, Demo page).
 */
export type PartnerGateway = (request: Request) => Promise<Response>;

/** One call as the page shows it to a partner's developer. */
export type Exchange = { method: string; path: string; status: number; body: unknown };

type Prospect = Record<string, unknown> & { source_prospect_id?: string; status?: string; enrollment_url?: string | null };

async function send(gateway: PartnerGateway, method: string, path: string, options: { token?: string; body?: unknown; secret?: string } = {}) {
  const url = new URL(`${getConfig().partnerBaseUrl}${path}`);
  const raw = options.body === undefined ? "" : JSON.stringify(options.body);
  const headers = new Headers({ accept: "application/json" });
  if (raw) headers.set("content-type", "application/json");
  if (options.token) headers.set("authorization", `Bearer ${options.token}`);
  // decisions §6: prospect routes accept a signature from every client and require it from some; the demo always signs.
  if (options.secret) headers.set("x-request-signature", signRequest(options.secret, { method, pathWithQuery: url.pathname + url.search, rawBody: raw }));
  const response = await gateway(new Request(url, { method, headers, body: raw || undefined }));
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: shown as text
  }
  const exchange: Exchange = { method, path: url.pathname, status: response.status, body };
  return exchange;
}

/** Tokens are reused until a minute before they expire, as a partner would (spec: `expires_in`). */
const tokens = new Map<string, { token: string; until: number }>();

async function token(gateway: PartnerGateway, partner: DemoPartner): Promise<{ exchange?: Exchange; token?: string }> {
  const cached = tokens.get(partner.client_id);
  if (cached && cached.until > Date.now()) return { token: cached.token };
  const exchange = await send(gateway, "POST", "/token", {
    body: { grant_type: "client_credentials", client_id: partner.client_id, client_secret: partner.client_secret, audience: partner.audience },
  });
  const answer = exchange.body as { access_token?: string; expires_in?: number } | null;
  if (answer?.access_token) tokens.set(partner.client_id, { token: answer.access_token, until: Date.now() + ((answer.expires_in ?? 0) - 60) * 1000 });
  // The token never goes back to the browser: only the call and its status are shown.
  return { exchange: { ...exchange, body: answer?.access_token ? { ...answer, access_token: "(hidden)" } : exchange.body }, token: answer?.access_token };
}

/** A refused token (client disabled, keys rotated) is fetched again on the next call. */
function forgetRefusedToken(partner: DemoPartner, exchange: Exchange): void {
  if (exchange.status === 401) tokens.delete(partner.client_id);
}

const prospectsPath = (partner: DemoPartner) => `/partners/${encodeURIComponent(partner.owner_slug)}/prospects`;

export type DemoCallResult = { exchanges: Exchange[]; prospect?: Prospect };

/** Token exchange, then `POST /partners/{owner_slug}/prospects` with a new renter of `scenario`. */
export async function createDemoProspect(gateway: PartnerGateway, partner: DemoPartner, scenario: DemoScenario): Promise<DemoCallResult> {
  const body = demoProspectBody(scenario, partner);
  if (!body) return { exchanges: [] };
  const auth = await token(gateway, partner);
  const before = auth.exchange ? [auth.exchange] : [];
  if (!auth.token) return { exchanges: before };
  const created = await send(gateway, "POST", prospectsPath(partner), { token: auth.token, body: { prospect: body }, secret: partner.client_secret });
  forgetRefusedToken(partner, created);
  const prospect = (created.body as { prospect?: Prospect } | null)?.prospect;
  return { exchanges: [...before, { ...created, body: { request: { prospect: body }, response: created.body } }], prospect };
}

/** Token exchange, then `GET /partners/{owner_slug}/prospects/{source}/{source_prospect_id}`. */
export async function readDemoProspect(gateway: PartnerGateway, partner: DemoPartner, sourceProspectId: string): Promise<DemoCallResult> {
  const auth = await token(gateway, partner);
  const before = auth.exchange ? [auth.exchange] : [];
  if (!auth.token) return { exchanges: before };
  const path = `${prospectsPath(partner)}/${encodeURIComponent(partner.source)}/${encodeURIComponent(sourceProspectId)}`;
  const read = await send(gateway, "GET", path, { token: auth.token, secret: partner.client_secret });
  forgetRefusedToken(partner, read);
  const prospect = (read.body as { prospect?: Prospect } | null)?.prospect;
  return { exchanges: [...before, read], prospect };
}
