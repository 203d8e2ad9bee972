import { TRPCError } from "@trpc/server";
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { publicRestProcedure, staffProcedure } from "../features/auth/procedures";
import { createManagedOwner } from "../features/owners/service";
import { prospectPartner } from "../features/prospects/prospect-test-helpers";
import { getDb } from "../server/db/client";
import { errors } from "../server/errors";
import { logger } from "../server/log";
import type { ConsoleUser } from "../server/trpc/context";
import { router } from "../server/trpc/init";
import { newClient, newOwner, unique } from "../test/factories";
import { call, gatewayDoor } from "../test/http";
import { createConsoleApiHandler } from "./console-api";

/**
 * One table holds each kind of error to one status on the two HTTP surfaces (docs/architecture.md
 * "Errors"): the Partner API through its real handler (`src/test/http.ts`), the console through its
 * real tRPC endpoint. A row fails when REST's status, the console's `data.status` or the console's
 * HTTP status is not the row's. The console's HTTP status follows tRPC's code, which is the AppError's
 * status (`baseProcedure`) for everything but tRPC's own input validation: that stays BAD_REQUEST
 * (400), its ZodError the cause, while `data.status` says 422 as REST does (docs/decisions.md,
 * "Structure: errors").
 */

const operator: ConsoleUser = { id: 1, email: "ops@example.com", role: "operator" };
const manager: ConsoleUser = { id: 2, email: "am@example.com", role: "account_manager" };

type ConsoleAnswer = { http: number; status: unknown; kind: unknown };

/** A console call through the real endpoint: a query as GET `?input=`, a mutation as POST. */
async function consoleCall(
  user: ConsoleUser | null,
  path: string,
  options: { input?: unknown; rawInput?: string; method?: "GET" | "POST"; contentType?: string } = {},
): Promise<ConsoleAnswer> {
  const handler = createConsoleApiHandler(async () => user);
  const raw = options.rawInput ?? (options.input === undefined ? undefined : JSON.stringify(options.input));
  const method = options.method ?? "GET";
  const url = `http://localhost/console/api/trpc/${path}${method === "GET" && raw !== undefined ? `?input=${encodeURIComponent(raw)}` : ""}`;
  const init: RequestInit = method === "GET" ? {} : { method, body: raw, headers: { "content-type": options.contentType ?? "application/json" } };
  const response = await handler(new Request(url, init));
  const body = (await response.json()) as { error?: { data: { status: unknown; kind: unknown } } };
  return { http: response.status, status: body.error?.data.status, kind: body.error?.data.kind };
}

let partner: Awaited<ReturnType<typeof prospectPartner>>;
let foreignSlug: string;
let managedOrgId: string;
const listedOrigin = `https://${unique("listed")}.example.com`;

beforeAll(async () => {
  partner = await prospectPartner({ activate: false });
  foreignSlug = (await newOwner(await newClient())).slug;
  managedOrgId = unique("managed");
  const db = await getDb();
  await db.transaction((tx) => createManagedOwner(tx, { name: "Managed", externalOrgId: managedOrgId }));
  await consoleCall(operator, "frameOrigins.add", { method: "POST", input: { origin: listedOrigin } });
});

type Row = {
  kind: string;
  status: number;
  /** The console's HTTP status when it is not `status` (tRPC's own input validation only). */
  consoleHttp?: number;
  rest: () => Promise<number>;
  console: () => Promise<ConsoleAnswer>;
};

const TABLE: Row[] = [
  {
    kind: "unauthenticated",
    status: 401,
    rest: async () => (await call("GET", `${partner.base}/prospects/${partner.source}/p-1`)).status,
    console: () => consoleCall(null, "owners.list"),
  },
  {
    kind: "forbidden",
    status: 403,
    rest: async () => (await call("GET", `/api/partners/${foreignSlug}/prospects/${partner.source}/p-1`, { token: partner.token })).status,
    console: () => consoleCall(manager, "users.list"),
  },
  {
    kind: "not_found",
    status: 404,
    rest: async () => (await partner.get("no-such-prospect")).status,
    console: () => consoleCall(operator, "owners.detail", { input: { slug: "no-such-owner" } }),
  },
  {
    kind: "not_found",
    status: 404,
    rest: async () => (await call("GET", "/api/no/such/route", { token: partner.token })).status,
    console: () => consoleCall(operator, "no.such.procedure"),
  },
  {
    kind: "invalid",
    status: 422,
    consoleHttp: 400,
    rest: async () => (await partner.post({ source: partner.source, source_prospect_id: "p-1", phone: 12 })).status,
    console: () => consoleCall(operator, "ingestion.events", { input: { status: "lost" } }),
  },
  {
    kind: "invalid",
    status: 422,
    rest: async () => (await partner.post({ ...validProspect(), source: "no_such_source" })).status,
    console: () => consoleCall(operator, "owners.updateSettings", { method: "POST", input: { slug: foreignSlug, purchase_flow_enabled: true } }),
  },
  {
    kind: "conflict",
    status: 409,
    rest: async () =>
      (await call("POST", "/api/partners/property_owners", { token: partner.token, body: { external_org_id: managedOrgId, name: "Taken" } })).status,
    console: () => consoleCall(operator, "frameOrigins.add", { method: "POST", input: { origin: listedOrigin } }),
  },
  {
    kind: "bad_request",
    status: 400,
    rest: async () => (await call("POST", "/api/partners/property_owners", { token: partner.token, rawBody: "{not json" })).status,
    console: () => consoleCall(operator, "owners.detail", { rawInput: "{not json" }),
  },
  {
    kind: "unsupported_media_type",
    status: 415,
    rest: async () =>
      (await call("POST", "/api/partners/property_owners", { token: partner.token, rawBody: "{}", headers: { "content-type": "text/plain" } })).status,
    console: () => consoleCall(operator, "frameOrigins.add", { method: "POST", rawInput: "{}", contentType: "text/plain" }),
  },
];

function validProspect() {
  return {
    source: partner.source,
    source_prospect_id: unique("p"),
    terms_accepted_at: "2026-11-01T10:00:00Z",
    email: "renter@example.com",
    phone: "5125550123",
    first_name: "Rita",
    last_name: "Renter",
  };
}

describe("each kind of error answers one status on REST and in the console", () => {
  it.each(TABLE)("$kind → $status", async (row) => {
    const [rest, console] = await Promise.all([row.rest(), row.console()]);
    expect({ rest, console: console.status, consoleHttp: console.http, consoleKind: console.kind }).toEqual({
      rest: row.status,
      console: row.status,
      consoleHttp: row.consoleHttp ?? row.status,
      consoleKind: row.kind,
    });
  });
});

/**
 * What a procedure may throw besides a feature's AppError, served by the real REST handler (the
 * partner builders' `publicRestProcedure`) and by tRPC's handler with the console's builder and
 * formatter. Before the one `toAppError`, REST answered tRPC's own BAD_REQUEST or PARSE_ERROR with a
 * 500 while the console said 400.
 */
describe("tRPC's own errors and unexpected ones answer the same status on both surfaces", () => {
  const THROWN = {
    badRequest: { status: 400, thrown: () => new TRPCError({ code: "BAD_REQUEST", message: "Batching is not enabled" }) },
    parseError: { status: 400, thrown: () => new TRPCError({ code: "PARSE_ERROR", message: "Unable to parse input" }) },
    conflict: { status: 409, thrown: () => errors.conflict("Already taken") },
    unexpected: { status: 500, thrown: () => new Error("connection to 10.0.0.5 refused") },
  };
  const names = Object.keys(THROWN) as (keyof typeof THROWN)[];
  const restProbe = router(
    Object.fromEntries(
      names.map((name) => [
        name,
        publicRestProcedure
          .meta({ openapi: { method: "GET", path: `/probe/${name}` } })
          .input(z.object({}))
          .output(z.object({}))
          .query(() => {
            throw THROWN[name].thrown();
          }),
      ]),
    ),
  );
  const consoleProbe = router(
    Object.fromEntries(
      names.map((name) => [
        name,
        staffProcedure("overview.read")
          .output(z.object({}))
          .query(() => {
            throw THROWN[name].thrown();
          }),
      ]),
    ),
  );
  const rest = gatewayDoor(restProbe, "/api");

  it.each(names)("%s", async (name) => {
    const answer = await rest(new Request(`http://localhost/api/probe/${name}`));
    const db = await getDb();
    const response = await fetchRequestHandler({
      endpoint: "/console/api/trpc",
      req: new Request(`http://localhost/console/api/trpc/${name}`),
      router: consoleProbe,
      createContext: async () => ({ db, log: logger(), requestId: "probe", user: operator }),
    });
    const shape = (await response.json()) as { error: { data: { status: number } } };
    const { status } = THROWN[name];
    expect({ rest: answer.status, console: shape.error.data.status, consoleHttp: response.status }).toEqual({
      rest: status,
      console: status,
      consoleHttp: status,
    });
  });
});
