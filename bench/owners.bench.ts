import { fmt, load } from "./lib/load";
import { partnerToken, type RunningService } from "./lib/service";

/**
 * The owners benchmark: authenticated owner upserts (token verification, scope check, validation, a
 * transaction with a row lock) against a trivial unauthenticated route served by the same process.
 */
export async function ownersBench(service: RunningService): Promise<void> {
  const token = await partnerToken(service);
  const ids = 500;
  const upsert = (i: number) =>
    fetch(`${service.baseUrl}/api/partners/property_owners`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ external_org_id: `bench-org-${i % ids}`, name: `Bench Owner ${i % ids}`, max_coverage_amount_cents: 100000 + i }),
    });
  const trivial = () => fetch(`${service.baseUrl}/api/docs`);

  await load(300, 8, upsert); // warm-up: compiles routes, fills pools, creates the 500 owners' first half
  await load(300, 8, trivial);
  const concurrency = 16;
  const baseline = await load(4000, concurrency, trivial);
  const measured = await load(4000, concurrency, upsert);
  console.log("owners: POST /api/partners/property_owners (authenticated upsert) vs GET /api/docs (trivial, unauthenticated)");
  console.log(`  baseline  GET /api/docs              ${fmt(baseline)}`);
  console.log(`  measured  POST property_owners       ${fmt(measured)}`);
  console.log(`  ratio     throughput ${(measured.perSecond / baseline.perSecond).toFixed(2)}x of baseline, p50 ${(measured.p50 / baseline.p50).toFixed(1)}x`);
  if (measured.errors || baseline.errors) throw new Error("benchmark requests failed");
}
