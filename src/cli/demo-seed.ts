import fs from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { createClient, findActiveClient, grantOwner } from "../features/auth/clients";
import { audienceOf } from "../features/auth/tokens";
import { hashPassword } from "../features/console/passwords";
import { createUser } from "../features/console/users";
import { users } from "../features/console/users.table";
import { ensureDemoEndpoint } from "../features/demo/endpoint";
import { findOwnerBySlug, upsertOwner } from "../features/owners/service";
import { createSource } from "../features/prospects/sources";
import { sources } from "../features/prospects/sources.table";
import { getConfig } from "../server/config";
import type { Db, Tx } from "../server/db/client";
import { errors } from "../server/errors";
import { randomToken } from "../server/secrets";
import { DEMO_GUARANTEE_PROPERTY, DEMO_GUARANTEE_UNIT, DEMO_PROPERTY, DEMO_UNITS, demoFrameOrigins, provisionDemoOwner } from "./demo-roster";

export type DemoCredentials = {
  client_id: string;
  client_secret: string;
  audience: string;
  owner_slug: string;
  source: string;
  console_email: string;
  console_password: string;
  /** The demo building and its units, by the partner identifiers a prospect names them with. */
  property_external_id: string;
  unit_external_ids: string[];
  /** The building and unit of the /demo page's guarantee renter (docs/decisions.md, Demo page). */
  guarantee_property_external_id?: string;
  guarantee_unit_external_id?: string;
};

type Partner = Omit<DemoCredentials, "property_external_id" | "unit_external_ids" | "guarantee_property_external_id" | "guarantee_unit_external_id">;

const DEMO_EMAIL = "operator@demo.local";

/**
 * Idempotent demo data for `npm start` (docs/decisions.md, "Enrollment: demo seed and local frame origins"; decisions §13): a partner client with every
 * scope, an owner it created with a loaded roster and its purchase flow on, a source, an operator
 * login, and in staging the local origins the /demo page frames from, as the demo owner's own.
 * Credentials are kept in `DATA_DIR/demo.json` (a local file of a development data directory) so
 * every start prints the same ones; a start on complete demo data writes nothing.
 */
export async function seedDemo(db: Db, dataDir: string): Promise<DemoCredentials> {
  const config = getConfig();
  // decisions §14: production is never seeded, whoever calls (start-check.ts refuses SEED_DEMO=1 before this).
  if (config.appEnv === "production") throw errors.forbidden("The demo is never seeded in production");
  const file = path.join(dataDir, "demo.json");
  const saved: Partner | undefined = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined;
  const demo = await db.transaction(async (tx) => {
    const partner = (saved && (await reusable(tx, saved))) || (await createDemoPartner(tx));
    const owner = await findOwnerBySlug(tx, partner.owner_slug);
    if (!owner) throw errors.notFound(`The demo owner ${partner.owner_slug} vanished during the seed`);
    await provisionDemoOwner(tx, owner, partner.client_id, demoFrameOrigins(config.port, config.appEnv));
    // The deliveries the /demo page shows (docs/decisions.md, Demo page); staging only, like the page.
    if (config.appEnv === "staging") await ensureDemoEndpoint(tx, owner.id, partner.client_id, config.publicBaseUrl);
    return {
      ...partner,
      property_external_id: DEMO_PROPERTY.external_system_id,
      unit_external_ids: DEMO_UNITS.map((unit) => unit.external_system_id),
      guarantee_property_external_id: DEMO_GUARANTEE_PROPERTY.external_system_id,
      guarantee_unit_external_id: DEMO_GUARANTEE_UNIT.external_system_id,
    } satisfies DemoCredentials;
  });
  const text = JSON.stringify(demo, null, 2);
  if (!fs.existsSync(file) || fs.readFileSync(file, "utf8") !== text) fs.writeFileSync(file, text, { mode: 0o600 });
  return demo;
}

/**
 * The saved demo partner when its client, owner and source still exist (the console login is
 * recreated with the saved password when it was removed); otherwise undefined and a new one is made.
 */
async function reusable(tx: Tx, saved: Partner): Promise<Partner | undefined> {
  if (!(await findActiveClient(tx, saved.client_id)) || !(await findOwnerBySlug(tx, saved.owner_slug))) return undefined;
  const [source] = await tx.select({ id: sources.id }).from(sources).where(eq(sources.code, saved.source));
  if (!source) await createSource(tx, { code: saved.source, clientId: saved.client_id, flow: "embedded" });
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.email, saved.console_email));
  if (!user) await createUser(tx, { email: saved.console_email, password: saved.console_password, role: "operator" });
  const { client_id, client_secret, audience, owner_slug, source: code, console_email, console_password } = saved;
  return { client_id, client_secret, audience, owner_slug, source: code, console_email, console_password };
}

async function createDemoPartner(tx: Tx): Promise<Partner> {
  const client = await createClient(tx, { name: "Demo partner", gateway: "partner" }, audienceOf("partner"));
  const { owner } = await upsertOwner(tx, client.client_id, { external_org_id: `demo-org-${randomToken(4)}`, name: "Demo Property Management" });
  await grantOwner(tx, client.client_id, owner.id);
  const sourceCode = `demo_${randomToken(4)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "x")}`;
  await createSource(tx, { code: sourceCode, clientId: client.client_id, flow: "embedded" });
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
}
