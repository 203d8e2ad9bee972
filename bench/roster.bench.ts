import fs from "node:fs";
import path from "node:path";
import { connectPostgres } from "../src/server/db/url";
import { cpuMsOf, listenerPid } from "./lib/cpu";
import { partnerToken, type RunningService } from "./lib/service";

const ITEMS = 500;
/** Owners, each sent the four batches once; p99 of this many is the slowest. */
const ROUNDS = Number(process.env.BENCH_ROSTER_ROUNDS ?? 12);
const BUILDINGS_FOR_UNITS = 50; // 10 units each, addresses with designators: derivation of streets and names
/** docs/decisions.md, Roster batch speed: every 500-item batch under this, on this 2-core machine. */
const TARGET_MS = 300;

const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

type Batch = "propertiesCreate" | "propertiesResend" | "unitsCreate" | "unitsResend";
type Sample = { wallMs: number; webCpuMs?: number; dbCpuMs?: number };

/**
 * 500-item property and unit batches through the API, each created then re-sent unchanged, against
 * the floor: one bulk `INSERT … ON CONFLICT` of the same 500 rows straight into the same tables
 * through the same driver (postgres.js), measured in the same run so the machine's load weighs on
 * both. Also prints the CPU each batch cost the web process and the database's backends (from
 * /proc), which the machine's other load moves less than wall time.
 */
export async function rosterBench(service: RunningService, dataDir: string): Promise<void> {
  const token = await partnerToken(service);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const instance = JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8")) as { url: string; socketUrl?: string };
  const sql = connectPostgres(instance.socketUrl ?? instance.url, { max: 1, onnotice: () => {} });
  const webPid = listenerPid(Number(new URL(service.baseUrl).port));
  /** CPU milliseconds of the service's database backends (not this benchmark's own connection). */
  const dbCpu = async () => {
    const rows = await sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
    return rows.reduce((sum, row) => sum + (cpuMsOf(row.pid) ?? 0), 0);
  };
  const timed = async (url: string, body: unknown): Promise<Sample> => {
    const [web0, db0] = [cpuMsOf(webPid), await dbCpu()];
    const started = performance.now();
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    const answer = (await response.json()) as { meta?: { failed: number } };
    const wallMs = performance.now() - started;
    if (!response.ok || answer.meta?.failed) throw new Error(`batch failed: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
    const web1 = cpuMsOf(webPid);
    return { wallMs, webCpuMs: web0 === undefined || web1 === undefined ? undefined : web1 - web0, dbCpuMs: (await dbCpu()) - db0 };
  };
  const propertyItems = Array.from({ length: ITEMS }, (_, i) => ({
    external_system_id: `bp-${i}`,
    building_name: `Bench Building ${i}`,
    address: { line_one: `${100 + i} Congress Ave Apt 1`, city: "Austin", state: "Texas", zip: "78701-1234" },
    default_coverage: { type: "multiplier", value: 1.5 },
  }));
  const unitItems = Array.from({ length: ITEMS }, (_, i) => {
    const building = i % BUILDINGS_FOR_UNITS;
    return {
      external_system_id: `bu-${i}`,
      property_external_id: `bp-${building}`,
      address: {
        line_one: `${100 + building} Congress ${i % 2 ? "Avenue" : "Ave"} ${i % 3 ? "Apt" : "#"} ${Math.floor(i / BUILDINGS_FOR_UNITS) + 1}`,
        city: "Austin",
        state: "TX",
        zip: "78701",
      },
    };
  });
  const newOwner = async (name: string) => {
    const owner = await fetch(`${service.baseUrl}/api/partners/property_owners`, {
      method: "POST",
      headers,
      body: JSON.stringify({ external_org_id: `${name}-${Date.now()}`, name }),
    });
    const slug = ((await owner.json()) as { property_owner: { owner_slug: string } }).property_owner.owner_slug;
    const [{ id }] = await sql<{ id: number }[]>`select id from property_owners where slug = ${slug}`;
    return { slug, id };
  };

  const samples: Record<Batch, Sample[]> = { propertiesCreate: [], propertiesResend: [], unitsCreate: [], unitsResend: [] };
  const floor: Record<Batch, number[]> = { propertiesCreate: [], propertiesResend: [], unitsCreate: [], unitsResend: [] };
  try {
    // Round 0 warms the web process up (its first statements are prepared, its code compiled) and is not counted.
    for (let round = 0; round <= ROUNDS; round++) {
      const { slug } = await newOwner(`Roster Bench ${round}`);
      const base = `${service.baseUrl}/api/partners/${slug}`;
      const keep = (batch: Batch, sample: Sample) => round > 0 && samples[batch].push(sample);
      keep("propertiesCreate", await timed(`${base}/properties`, propertyItems));
      keep("unitsCreate", await timed(`${base}/units`, unitItems));
      keep("propertiesResend", await timed(`${base}/properties`, propertyItems));
      keep("unitsResend", await timed(`${base}/units`, unitItems));
      if (round === 0) continue;

      // The floor: the same rows, already normalized, inserted then re-inserted in one statement each.
      const floorOwner = await newOwner(`Roster Floor ${round}`);
      const propertyRows = propertyItems.map((item, i) => ({
        owner_id: floorOwner.id,
        external_system_id: item.external_system_id,
        building_name: item.building_name,
        name_key: item.building_name.toLowerCase(),
        street_key: `${100 + i} CONGRESS AVE`,
        address_line_one: item.address.line_one,
        city: "Austin",
        state: "TX",
        zip: "78701",
        default_coverage: sql.json(item.default_coverage),
      }));
      const insertProperties = async () => {
        const started = performance.now();
        const rows = await sql<{ id: number; external_system_id: string }[]>`insert into properties ${sql(propertyRows)}
          on conflict (owner_id, external_system_id) where external_system_id is not null
          do update set building_name = excluded.building_name, address_line_one = excluded.address_line_one,
            default_coverage = excluded.default_coverage, updated_at = now()
          returning id, external_system_id`;
        return { ms: performance.now() - started, rows };
      };
      const created = await insertProperties();
      floor.propertiesCreate.push(created.ms);
      floor.propertiesResend.push((await insertProperties()).ms);
      const idOf = new Map(created.rows.map((row) => [row.external_system_id, row.id]));
      const unitRows = unitItems.map((item, i) => ({
        property_id: idOf.get(item.property_external_id) as number,
        external_system_id: item.external_system_id,
        name: String(Math.floor(i / BUILDINGS_FOR_UNITS) + 1),
        name_key: String(Math.floor(i / BUILDINGS_FOR_UNITS) + 1),
        address: sql.json(item.address),
      }));
      const insertUnits = async () => {
        const started = performance.now();
        await sql`insert into units ${sql(unitRows)}
          on conflict (property_id, external_system_id) where external_system_id is not null
          do update set name = excluded.name, name_key = excluded.name_key, address = excluded.address, updated_at = now()`;
        return performance.now() - started;
      };
      floor.unitsCreate.push(await insertUnits());
      floor.unitsResend.push(await insertUnits());
    }
  } finally {
    await sql.end();
  }

  const ms = (value: number | undefined) => (value === undefined ? "    ?" : value.toFixed(0).padStart(5));
  const line = (label: string, batch: Batch) => {
    const wall = samples[batch].map((sample) => sample.wallMs);
    const web = samples[batch].flatMap((sample) => (sample.webCpuMs === undefined ? [] : [sample.webCpuMs]));
    const db = samples[batch].flatMap((sample) => (sample.dbCpuMs === undefined ? [] : [sample.dbCpuMs]));
    const [p50, p99, f50] = [pct(wall, 50), pct(wall, 99), pct(floor[batch], 50)];
    console.log(
      `  ${label.padEnd(30)} p50 ${ms(p50)} ms  p99 ${ms(p99)} ms   floor p50 ${ms(f50)} ms  p99 ${ms(pct(floor[batch], 99))} ms  ${(p50 / f50).toFixed(1).padStart(5)}x floor   ` +
        `CPU/batch web ${ms(web.length ? pct(web, 50) : undefined)} ms + db ${ms(db.length ? pct(db, 50) : undefined)} ms   ${p99 < TARGET_MS ? "under" : "OVER"} ${TARGET_MS} ms (p99)`,
    );
  };
  console.log(
    `roster: ${ITEMS}-item batches through the API, ${ROUNDS} owners (p99 of ${ROUNDS} is the slowest), beside the floor: one bulk INSERT … ON CONFLICT of the same rows into the same tables`,
  );
  line("POST properties (create)", "propertiesCreate");
  line("POST properties (re-send)", "propertiesResend");
  line("POST units (create)", "unitsCreate");
  line("POST units (re-send)", "unitsResend");
}
