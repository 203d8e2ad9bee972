import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { getDb } from "../../server/db/client";
import { decryptSecret } from "../../server/secrets";
import { newClient, newOwner } from "../../test/factories";
import { call } from "../../test/http";
import { propertyOwners } from "../owners/owners.table";

export async function webhookPartner() {
  const client = await newClient();
  const owner = await newOwner(client);
  const token = await client.token();
  const base = `/api/partners/${owner.slug}/webhooks/endpoints`;
  const register = async (url: string, events: string[], name = "hook") => {
    const answer = await call<{ endpoint: { id: string } }>("POST", base, { token, body: { endpoint: { name, destination_url: url, events } } });
    if (answer.status !== 201) throw new Error(`register failed ${answer.status} ${answer.text}`);
    return answer.body.endpoint.id;
  };
  const secrets = async () => {
    const [row] = await (await getDb()).select().from(propertyOwners).where(eq(propertyOwners.id, owner.id));
    return {
      current: decryptSecret(row.signingSecretEncrypted),
      previous: row.previousSigningSecretEncrypted ? decryptSecret(row.previousSigningSecretEncrypted) : null,
    };
  };
  return { client, owner, token, base, register, secrets };
}

/** An independent check of `X-Webhook-Signature` over the raw body bytes (not the service's code). */
export function verifySignature(header: string, timestampHeader: string, rawBody: string, secret: string): boolean {
  const parts = header.split(",").map((part) => part.split("=") as [string, string]);
  const t = parts.find(([key]) => key === "t")?.[1];
  if (t !== timestampHeader) return false;
  const expected = createHmac("sha256", Buffer.from(secret, "utf8"))
    .update(Buffer.concat([Buffer.from(`${t}.`), Buffer.from(rawBody, "utf8")]))
    .digest("hex");
  return parts.some(([key, value]) => key === "v1" && value === expected);
}
