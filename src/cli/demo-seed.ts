import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { createClient, findActiveClient, grantOwner } from "../features/auth/clients";
import { audienceOf } from "../features/auth/tokens";
import { hashPassword } from "../features/console/passwords";
import { createUser } from "../features/console/users";
import { users } from "../features/console/users.table";
import { upsertOwner } from "../features/owners/service";
import { sources } from "../features/prospects/sources.table";
import type { Db } from "../server/db/client";
import { randomToken } from "../server/secrets";

export type DemoCredentials = {
  client_id: string;
  client_secret: string;
  audience: string;
  owner_slug: string;
  source: string;
  console_email: string;
  console_password: string;
};

const DEMO_EMAIL = "operator@demo.local";

/**
 * Idempotent demo data for `npm start`: a partner client with every scope, an owner it created, a
 * source and an operator login. Credentials are kept in `DATA_DIR/demo.json` (a local file of a
 * development data directory) so every start prints the same ones.
 */
export async function seedDemo(db: Db, dataDir: string): Promise<DemoCredentials> {
  const file = path.join(dataDir, "demo.json");
  const saved: DemoCredentials | undefined = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;
  if (saved && (await findActiveClient(db, saved.client_id))) return saved;

  const demo = await db.transaction(async (tx) => {
    const client = await createClient(tx, { name: "Demo partner", gateway: "partner" }, audienceOf("partner"));
    const { owner } = await upsertOwner(tx, client.client_id, { external_org_id: `demo-org-${randomToken(4)}`, name: "Demo Property Management" });
    await grantOwner(tx, client.client_id, owner.id);
    const sourceCode = `demo_${randomToken(4)
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "x")}`;
    await tx.insert(sources).values({ code: sourceCode, clientId: client.client_id, flow: "embedded" });
    const password = randomToken(12);
    const [existing] = await tx.select().from(users).where(eq(users.email, DEMO_EMAIL));
    if (existing)
      await tx
        .update(users)
        .set({ passwordHash: await hashPassword(password) })
        .where(eq(users.id, existing.id));
    else await createUser(tx, { email: DEMO_EMAIL, password, role: "operator" });
    return {
      client_id: client.client_id,
      client_secret: client.client_secret,
      audience: client.audience,
      owner_slug: owner.slug,
      source: sourceCode,
      console_email: DEMO_EMAIL,
      console_password: password,
    };
  });
  fs.writeFileSync(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
  return demo;
}
