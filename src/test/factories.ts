import { randomBytes } from "node:crypto";
import { createClient, grantOwner } from "../features/auth/clients";
import type { Gateway, Scope } from "../features/auth/scopes";
import { audienceOf } from "../features/auth/tokens";
import { upsertOwner } from "../features/owners/service";
import { getDb } from "../server/db/client";
import { call } from "./http";

export const unique = (prefix: string) => `${prefix}-${randomBytes(5).toString("hex")}`;

export type TestClient = { clientId: string; secret: string; audience: string; gateway: Gateway; token: (scope?: string) => Promise<string> };

/** A provisioned API client whose `token()` goes through the real token route. */
export async function newClient(
  options: { gateway?: Gateway; scopes?: Scope[]; requireSignature?: boolean; partnerClientId?: string } = {},
): Promise<TestClient> {
  const gateway = options.gateway ?? "partner";
  const created = await createClient(
    await getDb(),
    { name: unique("client"), gateway, scopes: options.scopes, requireSignature: options.requireSignature, partnerClientId: options.partnerClientId },
    audienceOf(gateway),
  );
  return {
    clientId: created.client_id,
    secret: created.client_secret,
    audience: created.audience,
    gateway,
    token: async (scope?: string) => {
      const answer = await call<{ access_token: string }>("POST", gateway === "partner" ? "/api/token" : "/ingest/token", {
        body: { grant_type: "client_credentials", client_id: created.client_id, client_secret: created.client_secret, audience: created.audience, scope },
      });
      if (answer.status !== 200) throw new Error(`token exchange failed: ${answer.status} ${answer.text}`);
      return answer.body.access_token;
    },
  };
}

/** An owner created for `client` through the domain function (the route itself is tested separately). */
export async function newOwner(client: TestClient, fields: { name?: string } = {}) {
  const db = await getDb();
  const { owner } = await db.transaction((tx) => upsertOwner(tx, client.clientId, { external_org_id: unique("org"), name: fields.name ?? unique("Owner") }));
  return owner;
}

export async function grant(client: TestClient, ownerId: number) {
  await grantOwner(await getDb(), client.clientId, ownerId);
}
