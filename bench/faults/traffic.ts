import { drizzle } from "drizzle-orm/postgres-js";
import type postgres from "postgres";
import { completeProspectFields } from "../../src/test/samples";
import type { Arrival } from "../lib/receivers";
import type { Cluster } from "./cluster";

/** One request as the scenario saw it: when it started, which web process, status (0: no answer within the bound), latency. */
export type Sample = { at: number; web: number; kind: string; status: number; ms: number; retryAfter?: string; body?: string };

/** The bound on every request of a scenario: an answer later than this counts as a hang. */
export const REQUEST_BOUND_MS = 10_000;

export const pct = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function until(check: () => Promise<boolean> | boolean, timeoutMs: number, everyMs = 250): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (
      await Promise.resolve()
        .then(check)
        .catch(() => false)
    )
      return true;
    await sleep(everyMs);
  }
  return false;
}

/** A partner client of the cluster: the demo client's token, sending to either web process. */
export async function partnerClient(cluster: Cluster, samples: Sample[]) {
  const tokenAnswer = await fetch(`${cluster.webs[0].baseUrl}/api/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      grant_type: "client_credentials",
      client_id: cluster.demo.client_id,
      client_secret: cluster.demo.client_secret,
      audience: cluster.demo.audience,
    }),
  });
  const token = ((await tokenAnswer.json()) as { access_token: string }).access_token;
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  /** Sends and records; never throws: no answer within the bound is status 0. */
  const send = async (
    web: number,
    kind: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; text: string; headers?: Headers }> => {
    const at = Date.now();
    try {
      const response = await fetch(`${cluster.webs[web].baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_BOUND_MS),
      });
      const text = await response.text();
      const failed = response.status >= 500;
      samples.push({
        at,
        web,
        kind,
        status: response.status,
        ms: Date.now() - at,
        ...(failed ? { retryAfter: response.headers.get("retry-after") ?? undefined, body: text.slice(0, 200) } : {}),
      });
      return { status: response.status, text, headers: response.headers };
    } catch {
      samples.push({ at, web, kind, status: 0, ms: Date.now() - at });
      return { status: 0, text: "" };
    }
  };
  const must = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const answer = await send(0, "setup", method, path, body);
    if (answer.status < 200 || answer.status >= 300) throw new Error(`set-up: ${method} ${path} ${answer.status} ${answer.text}`);
    return JSON.parse(answer.text) as T;
  };
  return { send, must, source: cluster.demo.source };
}

export type PartnerClient = Awaited<ReturnType<typeof partnerClient>>;

/** An owner with a building of `units` units, purchase flow on, and endpoints at the receivers. */
export async function ownerWithEndpoints(client: PartnerClient, name: string, units: number, endpoints: { url: string; events: string[] }[]) {
  const externalOrgId = `${name}-${Date.now()}`;
  const slug = (
    await client.must<{ property_owner: { owner_slug: string } }>("POST", "/api/partners/property_owners", { external_org_id: externalOrgId, name })
  ).property_owner.owner_slug;
  const base = `/api/partners/${slug}`;
  await client.must("POST", `${base}/bank_accounts`, [{ external_system_id: "ba", display_name: "Main", routing_number: "021000021", account_number: "1234" }]);
  await client.must("POST", `${base}/properties`, [
    { external_system_id: "b1", building_name: "Faults", address: { line_one: `${name.length} Fault St`, city: "Austin", state: "TX", zip: "78701" } },
  ]);
  await client.must(
    "POST",
    `${base}/units`,
    Array.from({ length: units }, (_, u) => ({ external_system_id: `u${u}`, property_external_id: "b1", name: String(100 + u) })),
  );
  await client.must("POST", "/api/partners/property_owners", { external_org_id: externalOrgId, purchase_flow_enabled: true });
  for (const endpoint of endpoints) {
    await client.must("POST", `${base}/webhooks/endpoints`, { endpoint: { name: "faults", destination_url: endpoint.url, events: endpoint.events } });
  }
  return { slug, base };
}

export const prospectBody = (source: string, id: string, unit: number) => ({
  prospect: { ...completeProspectFields(source, id, "b1", `u${unit}`), email: `${id}@example.com` },
});

/**
 * A delivery burst: `events` `delinquency.created` events committed through the service's own
 * emission function (each subscribed endpoint gets a delivery of each), in transactions of 50.
 */
export async function emitBurst(sql: postgres.Sql, slug: string, prefix: string, events: number): Promise<void> {
  const { emitEvents } = await import("../../src/features/webhooks/emit");
  const db = drizzle(sql);
  const [{ id: ownerId }] = await sql<{ id: number }[]>`select id from property_owners where slug = ${slug}`;
  for (let start = 0; start < events; start += 50) {
    const inputs = Array.from({ length: Math.min(50, events - start) }, (_, i) => ({
      ownerId,
      ownerSlug: slug,
      event: "delinquency.created" as const,
      data: { id: `${prefix}-${start + i}` },
    }));
    await db.transaction((tx) => emitEvents(tx as never, inputs));
  }
}

/** Deliveries of the owners named, as the database has them, against the receiver's arrivals. */
export async function deliveryLedger(sql: postgres.Sql, slugs: string[], arrivals: Arrival[]) {
  const rows = await sql<{ id: string; status: string }[]>`
    select d.id, d.status from webhook_deliveries d join property_owners o on o.id = d.owner_id where o.slug in ${sql(slugs)}`;
  const received = new Map<string, number>();
  for (const arrival of arrivals) received.set(arrival.delivery, (received.get(arrival.delivery) ?? 0) + 1);
  const byStatus: Record<string, number> = {};
  for (const row of rows) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;
  const missing = rows.filter((row) => !received.has(row.id)).length;
  const duplicates = [...received.values()].reduce((sum, n) => sum + (n - 1), 0);
  return {
    expected: rows.length,
    delivered: rows.length - missing,
    missing,
    duplicates,
    byStatus,
    duplicateIds: [...received].filter(([, n]) => n > 1).map(([id]) => id),
  };
}

export function statusCounts(samples: Sample[]): string {
  const counts: Record<string, number> = {};
  for (const s of samples) counts[s.status === 0 ? "no answer" : String(s.status)] = (counts[s.status === 0 ? "no answer" : String(s.status)] ?? 0) + 1;
  return (
    Object.entries(counts)
      .map(([status, n]) => `${status}: ${n}`)
      .join(", ") || "none"
  );
}
