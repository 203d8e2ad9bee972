import fs from "node:fs";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { frameOrigins } from "../features/enrollment/frame-origins.table";
import { framingHeadersFor } from "../features/enrollment/framing/framing-headers";
import { propertyOwners } from "../features/owners/owners.table";
import { bankAccounts, properties, units } from "../features/roster/roster.table";
import { getConfig } from "../server/config";
import { getDb } from "../server/db/client";
import { newClient, newOwner } from "../test/factories";
import { call } from "../test/http";
import { runDueJobs } from "../test/jobs";
import { seedDemo } from "./demo-seed";
import { DEMO_PROSPECT_ID, startBanner } from "./start-banner";

/** Every row the seed could write, timestamps included, and the queued jobs: equal snapshots mean nothing changed. */
async function snapshot() {
  const db = await getDb();
  const tables = [
    "api_clients",
    "client_owner_grants",
    "property_owners",
    "bank_accounts",
    "properties",
    "units",
    "sources",
    "users",
    "frame_origins",
    "webhook_endpoints",
  ];
  const rows: Record<string, unknown> = {};
  for (const table of tables) rows[table] = await db.execute(sql`select * from ${sql.identifier(table)} order by 1, 2`);
  rows.jobs = await db.execute(sql`select id, task_id, payload, run_at from graphile_worker._private_jobs order by id`);
  return rows;
}

/** The JSON bodies of the banner's `-d '…'` arguments: the token request, then the prospect. */
function bannerBodies(banner: string): Array<Record<string, unknown>> {
  return [...banner.matchAll(/-d '([^']+)'/g)].map((match) => JSON.parse(match[1]));
}

describe("npm start's demo seed (docs/decisions.md, Enrollment: demo seed and local frame origins; decisions §13)", () => {
  it("provisions an activated demo owner with its roster and its own local frame origins, and a second run changes nothing", async () => {
    const db = await getDb();
    const { dataDir, port } = getConfig();
    const first = await seedDemo(db, dataDir);
    const [owner] = await db.select().from(propertyOwners).where(eq(propertyOwners.slug, first.owner_slug));
    expect(owner).toMatchObject({ name: "Demo Property Management", purchaseFlowEnabled: true, managed: false });
    expect(owner.embeddedFrameAncestors).toEqual(expect.arrayContaining([`http://localhost:${port}`, `http://127.0.0.1:${port}`]));
    const accounts = await db.select().from(bankAccounts).where(eq(bankAccounts.ownerId, owner.id));
    expect(accounts.map((account) => [account.externalSystemId, account.isDefault])).toEqual([["demo-operating", true]]);
    const buildings = await db.select().from(properties).where(eq(properties.ownerId, owner.id)).orderBy(properties.id);
    expect(buildings.map((building) => [building.externalSystemId, building.guaranteeEnabled])).toEqual([
      [first.property_external_id, false],
      [first.guarantee_property_external_id, true],
    ]);
    expect(buildings[0]).toMatchObject({ externalSystemId: first.property_external_id, active: true, city: "Austin", state: "TX", zip: "78704" });
    const guaranteeUnits = await db.select().from(units).where(eq(units.propertyId, buildings[1].id));
    expect(guaranteeUnits.map((unit) => unit.externalSystemId)).toEqual([first.guarantee_unit_external_id]);
    const unitRows = await db.select().from(units).where(eq(units.propertyId, buildings[0].id));
    expect(unitRows.map((unit) => unit.externalSystemId).sort()).toEqual([...first.unit_external_ids].sort());
    expect(first.unit_external_ids).toHaveLength(4);
    // Nothing operator-wide: the demo's origins are its owner's (docs/decisions.md
    // "Hardening: the CLI, merged links, demo framing").
    const origins = (await db.select().from(frameOrigins)).map((row) => row.origin);
    expect(origins).not.toContain(`http://localhost:${port}`);
    expect(origins).not.toContain(`http://127.0.0.1:${port}`);

    const file = path.join(dataDir, "demo.json");
    const saved = fs.readFileSync(file, "utf8");
    const before = await snapshot();
    const second = await seedDemo(db, dataDir);
    expect(second).toEqual(first);
    expect(await snapshot()).toEqual(before);
    expect(fs.readFileSync(file, "utf8")).toBe(saved);
  });

  it("puts a deactivated demo owner back in service on the next start, with the same credentials", async () => {
    const db = await getDb();
    const { dataDir } = getConfig();
    const first = await seedDemo(db, dataDir);
    await db.update(propertyOwners).set({ purchaseFlowEnabled: false }).where(eq(propertyOwners.slug, first.owner_slug));
    expect(await seedDemo(db, dataDir)).toEqual(first);
    const [owner] = await db.select().from(propertyOwners).where(eq(propertyOwners.slug, first.owner_slug));
    expect(owner.purchaseFlowEnabled).toBe(true);
  });

  it("the banner's token request and prospect POST, sent through the real handler, give a ready prospect with an enrollment_url", async () => {
    const config = getConfig();
    const demo = await seedDemo(await getDb(), config.dataDir);
    const banner = startBanner(config, demo);
    expect(banner).toContain(`${config.partnerBaseUrl}/partners/${demo.owner_slug}/prospects`);
    expect(banner).toContain("enrollment_url");
    expect(banner).not.toMatch(/social_security_number/);
    const [tokenBody, prospectBody] = bannerBodies(banner);
    expect(prospectBody.prospect).toMatchObject({ source: demo.source, property: { external_system_id: demo.property_external_id } });

    const token = await call<{ access_token: string }>("POST", "/api/token", { body: tokenBody });
    expect(token.status).toBe(200);
    const auth = { token: token.body.access_token };
    const posted = await call<{ status_code: number; prospect: { status: string } }>("POST", `/api/partners/${demo.owner_slug}/prospects`, {
      ...auth,
      body: prospectBody,
    });
    expect(posted.status, posted.text).toBe(200);
    expect(posted.body.status_code).toBe(201);
    expect(posted.body.prospect.status).toBe("processing");
    await runDueJobs();
    const read = await call<{ prospect: Record<string, unknown> }>(
      "GET",
      `/api/partners/${demo.owner_slug}/prospects/${demo.source}/${DEMO_PROSPECT_ID}`,
      auth,
    );
    expect(read.status).toBe(200);
    expect(read.body.prospect).toMatchObject({ status: "ready", effective_coverage_amount_cents: 185000 });
    expect(read.body.prospect.enrollment_url).toEqual(expect.stringContaining(`/embedded/${demo.owner_slug}/${demo.source}/${DEMO_PROSPECT_ID}`));
    expect(read.body.prospect.sdi_ineligibility_reasons ?? []).toEqual([]);
  });

  it("the demo's frame origins frame the demo owner's embedded pages only, not another owner's", async () => {
    const { dataDir, port } = getConfig();
    const demo = await seedDemo(await getDb(), dataDir);
    const local = [`http://localhost:${port}`, `http://127.0.0.1:${port}`];
    const demoPage = await framingHeadersFor(`/enroll/embedded/${demo.owner_slug}/${demo.source}/${DEMO_PROSPECT_ID}`);
    for (const origin of local) expect(demoPage?.["Content-Security-Policy"]).toContain(origin);
    const other = await newOwner(await newClient());
    const otherPage = await framingHeadersFor(`/enroll/embedded/${other.slug}/src/p-1`);
    expect(otherPage).toEqual({ "Content-Security-Policy": "frame-ancestors 'none'" });
  });

  it("a database seeded before: the migration moves the seeded pair to the demo owner, other operator origins stay", async () => {
    const db = await getDb();
    const { dataDir, port } = getConfig();
    const demo = await seedDemo(db, dataDir);
    // What earlier seeds left, at this port and at an earlier start's: the pairs operator-wide, 127.0.0.1 on the owner.
    const earlier = port + 1;
    const seededPairs = [port, earlier].flatMap((p) => [`http://localhost:${p}`, `http://127.0.0.1:${p}`]);
    const operatorsOwn = ["http://localhost:5173", "https://ops.example.com"];
    await db
      .update(propertyOwners)
      .set({ embeddedFrameAncestors: [`http://127.0.0.1:${port}`, "https://portal.example.org", `http://127.0.0.1:${earlier}`] })
      .where(eq(propertyOwners.slug, demo.owner_slug));
    await db
      .insert(frameOrigins)
      .values([...seededPairs, ...operatorsOwn].map((origin) => ({ origin })))
      .onConflictDoNothing();

    const migration = fs.readFileSync(path.join("drizzle", "0031_demo_frame_origins_owned.sql"), "utf8");
    for (const statement of migration.split("--> statement-breakpoint")) await db.execute(sql.raw(statement));

    const [owner] = await db.select().from(propertyOwners).where(eq(propertyOwners.slug, demo.owner_slug));
    expect([...owner.embeddedFrameAncestors].sort()).toEqual([...seededPairs, "https://portal.example.org"].sort());
    const origins = (await db.select().from(frameOrigins)).map((row) => row.origin);
    expect(origins).toEqual(expect.arrayContaining(operatorsOwn));
    for (const origin of seededPairs) expect(origins).not.toContain(origin);
    // The next start finds the demo owner complete and writes nothing.
    const before = await snapshot();
    await seedDemo(db, dataDir);
    expect(await snapshot()).toEqual(before);
  });
});
