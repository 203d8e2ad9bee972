import fs from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { partnerToken, type RunningService } from "./lib/service";

const ITEMS = 500;
const ROUNDS = 5;
const BUILDINGS_FOR_UNITS = 50; // 10 units each, addresses with designators: derivation of streets and names

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Issue 3's benchmark: 500-item property and unit batches, as creates then as updates, against one
 * bulk `INSERT … ON CONFLICT` of the same 500 rows through the same driver (postgres.js).
 */
export async function rosterBench(service: RunningService, dataDir: string): Promise<void> {
  const token = await partnerToken(service);
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const timed = async (url: string, body: unknown) => {
    const started = performance.now();
    const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
    const answer = (await response.json()) as { meta?: { failed: number } };
    if (!response.ok || answer.meta?.failed) throw new Error(`batch failed: ${response.status} ${JSON.stringify(answer).slice(0, 300)}`);
    return performance.now() - started;
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

  const times = { propertiesCreate: [] as number[], unitsCreate: [] as number[], propertiesUpdate: [] as number[], unitsUpdate: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const owner = await fetch(`${service.baseUrl}/api/partners/property_owners`, {
      method: "POST",
      headers,
      body: JSON.stringify({ external_org_id: `bench-roster-${round}-${Date.now()}`, name: `Roster Bench ${round}` }),
    });
    const slug = ((await owner.json()) as { property_owner: { owner_slug: string } }).property_owner.owner_slug;
    const base = `${service.baseUrl}/api/partners/${slug}`;
    times.propertiesCreate.push(await timed(`${base}/properties`, propertyItems));
    times.unitsCreate.push(await timed(`${base}/units`, unitItems));
    times.propertiesUpdate.push(await timed(`${base}/properties`, propertyItems));
    times.unitsUpdate.push(await timed(`${base}/units`, unitItems));
  }

  const url = (JSON.parse(fs.readFileSync(path.join(dataDir, "postgres.json"), "utf8")) as { url: string }).url;
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  const baseline: number[] = [];
  try {
    await sql`create table if not exists bench_properties (like properties including all)`;
    const rows = propertyItems.map((item, i) => ({
      owner_id: 1,
      external_system_id: item.external_system_id,
      building_name: item.building_name,
      name_key: item.building_name.toLowerCase(),
      street_key: `${100 + i} CONGRESS AVE`,
      address_line_one: item.address.line_one,
      city: "Austin",
      state: "TX",
      zip: "78701",
    }));
    for (let round = 0; round < ROUNDS * 2; round++) {
      const started = performance.now();
      await sql`insert into bench_properties ${sql(rows)}
        on conflict (owner_id, external_system_id) where external_system_id is not null
        do update set building_name = excluded.building_name, address_line_one = excluded.address_line_one, updated_at = now()`;
      baseline.push(performance.now() - started);
    }
    await sql`drop table bench_properties`;
  } finally {
    await sql.end();
  }

  const b = median(baseline);
  const line = (label: string, values: number[]) => {
    const p50 = median(values);
    console.log(
      `  ${label.padEnd(26)} p50 ${p50.toFixed(0).padStart(5)} ms   ${(p50 / b).toFixed(1).padStart(5)}x baseline   ${p50 < 1000 ? "under" : "OVER"} the 1 s target`,
    );
  };
  console.log(`roster: 500-item batches through the API (p50 of ${ROUNDS} owners) vs one bulk INSERT … ON CONFLICT of 500 rows`);
  console.log(`  baseline bulk insert       p50 ${b.toFixed(0).padStart(5)} ms`);
  line("POST properties (create)", times.propertiesCreate);
  line("POST units (create)", times.unitsCreate);
  line("POST properties (update)", times.propertiesUpdate);
  line("POST units (update)", times.unitsUpdate);
}
