import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { seedDemo } from "../../cli/demo-seed";
import { getConfig, resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { call, throughDoor } from "../../test/http";
import { runDueJobs } from "../../test/jobs";
import { findOwnerBySlug } from "../owners/service";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";
import { createEndpoint } from "../webhooks/endpoints";
import { signingSecretsFor } from "../webhooks/secrets";
import { signatureHeader } from "../webhooks/signing";
import { webhookEndpoints } from "../webhooks/webhooks.table";
import { listDemoDeliveries, listDemoProspects } from "./activity";
import { readDemoPartner } from "./credentials";
import { DEMO_ENDPOINT_NAME, ensureDemoEndpoint, isDemoDelivery, UNREACHABLE_DEMO_DESTINATION } from "./endpoint";
import { createDemoProspect, readDemoProspect } from "./partner-calls";

async function seeded() {
  const db = await getDb();
  await seedDemo(db, getConfig().dataDir);
  const partner = readDemoPartner(getConfig().dataDir);
  if (!partner) throw new Error("the seed wrote no demo.json");
  return { db, partner };
}

describe("the demo page's Partner API calls (docs/decisions.md, Demo page)", () => {
  it("creates a renter through the gateway (token, signed POST) and reads it back ready with its enrollment_url", async () => {
    const { partner } = await seeded();
    const created = await createDemoProspect(throughDoor, partner, "standard");
    expect(created.exchanges.map((exchange) => [exchange.method, exchange.path, exchange.status])).toEqual([
      ["POST", "/api/token", 200],
      ["POST", `/api/partners/${partner.owner_slug}/prospects`, 200],
    ]);
    // The token never leaves the server.
    expect(JSON.stringify(created.exchanges)).not.toMatch(/eyJ/);
    expect(created.prospect).toMatchObject({ status: "processing", source: partner.source });
    const id = created.prospect?.source_prospect_id as string;
    expect(id).toMatch(/^demo-page-standard-/);

    await runDueJobs();
    const read = await readDemoProspect(throughDoor, partner, id);
    // The token is reused: one call.
    expect(read.exchanges.map((exchange) => [exchange.method, exchange.status])).toEqual([["GET", 200]]);
    expect(read.prospect).toMatchObject({ status: "ready", source_prospect_id: id });
    expect(read.prospect?.enrollment_url).toEqual(expect.stringContaining(`/enroll/embedded/${partner.owner_slug}/${partner.source}/${id}?`));
  });

  it("signs its prospect requests well enough for a client that requires signatures", async () => {
    const { client, owner, source } = await prospectPartner({ requireSignature: true });
    const partner = {
      client_id: client.clientId,
      client_secret: client.secret,
      audience: client.audience,
      owner_slug: owner.slug,
      source,
      property_external_id: "b1",
      unit_external_ids: ["u1"],
    };
    const created = await createDemoProspect(throughDoor, partner, "decline");
    expect(created.exchanges.at(-1)?.status).toBe(200);
    expect(created.prospect?.email).toMatch(/\+decline@example\.com$/);
    const read = await readDemoProspect(throughDoor, partner, created.prospect?.source_prospect_id as string);
    expect(read.exchanges.at(-1)?.status).toBe(200);
    // And an unsigned request of the same client is refused, so the signature is what made them pass.
    const token = await client.token();
    const unsigned = await call("GET", `/api/partners/${owner.slug}/prospects/${source}/${created.prospect?.source_prospect_id}`, { token });
    expect(unsigned.status).toBe(401);
  });

  it("puts the guarantee renter in the seed's guarantee building, where it is eligible", async () => {
    const { partner } = await seeded();
    const created = await createDemoProspect(throughDoor, partner, "guarantee");
    expect(created.prospect).toMatchObject({ guarantor_coverage: true });
    await runDueJobs();
    const read = await readDemoProspect(throughDoor, partner, created.prospect?.source_prospect_id as string);
    expect(read.prospect).toMatchObject({ status: "ready", rg_eligibility_status: "eligible" });
    expect(read.prospect?.enrollment_url).toEqual(expect.any(String));
  });

  it("answers the gateway's refusal as a call, without a prospect, when the credentials are wrong", async () => {
    const { partner } = await seeded();
    const result = await createDemoProspect(throughDoor, { ...partner, client_id: "nobody", client_secret: "wrong" }, "standard");
    expect(result.prospect).toBeUndefined();
    expect(result.exchanges).toHaveLength(1);
    expect(result.exchanges[0]).toMatchObject({ path: "/api/token", status: 401 });
  });
});

describe("the demo page's activity (deliveries and earlier renters, the demo owner's only)", () => {
  it("lists the demo owner's deliveries with their exact payloads, and nothing of another owner", async () => {
    const { db, partner } = await seeded();
    const other = await prospectPartner();
    const otherOwner = await findOwnerBySlug(db, other.owner.slug);
    await createEndpoint(
      db,
      { ownerId: otherOwner?.id as number, clientId: other.client.clientId },
      {
        name: "other",
        destination_url: "https://other.invalid/hook",
        events: ["prospect.created"],
      },
    );
    await other.post(completeProspect(other.source, "not-demo"));
    const created = await createDemoProspect(throughDoor, partner, "standard");
    const id = created.prospect?.source_prospect_id as string;

    const deliveries = await listDemoDeliveries(db, partner.owner_slug);
    const mine = deliveries.filter((delivery) => delivery.payload.includes(id));
    expect(mine.map((delivery) => delivery.event)).toContain("prospect.created");
    expect(mine[0]).toMatchObject({ endpoint_name: DEMO_ENDPOINT_NAME, destination_url: UNREACHABLE_DEMO_DESTINATION, status: "pending" });
    expect(JSON.parse(mine[0].payload)).toMatchObject({ event: mine[0].event, property_owner_slug: partner.owner_slug });
    expect(deliveries.some((delivery) => delivery.payload.includes("not-demo"))).toBe(false);
    expect(await listDemoDeliveries(db, "no-such-owner")).toEqual([]);

    // Attempted for real: the reserved name never resolves, and the failure says so.
    await runDueJobs();
    const after = (await listDemoDeliveries(db, partner.owner_slug)).find((delivery) => delivery.id === mine[0].id);
    expect(after).toMatchObject({ status: "retrying", attempt_number: 1 });
    expect(after?.last_attempt_failure_reason).toMatch(/DNS/);
  });

  it("offers the page's own earlier renters, newest first, and not the partner's others", async () => {
    const { db, partner } = await seeded();
    const first = await createDemoProspect(throughDoor, partner, "standard");
    const second = await createDemoProspect(throughDoor, partner, "blocked");
    const banner = await call("POST", `/api/partners/${partner.owner_slug}/prospects`, {
      token: (
        await call<{ access_token: string }>("POST", "/api/token", {
          body: { grant_type: "client_credentials", client_id: partner.client_id, client_secret: partner.client_secret, audience: partner.audience },
        })
      ).body.access_token,
      body: { prospect: { source: partner.source, source_prospect_id: "demo-renter-1", terms_accepted_at: "2026-11-01T10:00:00Z", email: "x@example.com" } },
    });
    expect(banner.status).toBe(200);
    const listed = (await listDemoProspects(db, partner.owner_slug, partner.source)).map((row) => row.source_prospect_id);
    expect(listed.indexOf(second.prospect?.source_prospect_id as string)).toBeLessThan(listed.indexOf(first.prospect?.source_prospect_id as string));
    expect(listed).not.toContain("demo-renter-1");
    expect(listed.indexOf(first.prospect?.source_prospect_id as string)).toBeGreaterThanOrEqual(0);
  });
});

describe("the demo endpoint and its receiver", () => {
  it("points at the service's own receiver when it is served over HTTPS, which then acknowledges real deliveries", async () => {
    const { db, partner } = await seeded();
    const owner = await findOwnerBySlug(db, partner.owner_slug);
    const { POST } = await import("../../app/demo/webhooks/route");
    // The service "served over HTTPS": a TLS listener handing every request to the receiver route.
    const server = https.createServer(
      { key: fs.readFileSync(process.env.TEST_TLS_KEY ?? ""), cert: fs.readFileSync(process.env.TEST_TLS_CERT ?? "") },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (chunk: Buffer) => chunks.push(chunk));
        req.on("end", async () => {
          const answer = await POST(
            new Request(`https://localhost${req.url}`, { method: "POST", headers: req.headers as Record<string, string>, body: Buffer.concat(chunks) }),
          );
          res.writeHead(answer.status);
          res.end(await answer.text());
        });
      },
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const base = `https://localhost:${(server.address() as AddressInfo).port}`;
      const before = await ensureDemoEndpoint(db, owner?.id as number, partner.client_id, "http://localhost:3999");
      expect(before.destinationUrl).toBe(UNREACHABLE_DEMO_DESTINATION);
      const moved = await ensureDemoEndpoint(db, owner?.id as number, partner.client_id, base);
      expect(moved).toMatchObject({ id: before.id, destinationUrl: `${base}/demo/webhooks` });
      // Already as wanted: nothing is written.
      expect((await ensureDemoEndpoint(db, owner?.id as number, partner.client_id, base)).updatedAt).toEqual(moved.updatedAt);

      const created = await createDemoProspect(throughDoor, partner, "standard");
      await runDueJobs();
      const delivered = (await listDemoDeliveries(db, partner.owner_slug)).filter((delivery) =>
        delivery.payload.includes(created.prospect?.source_prospect_id as string),
      );
      expect(delivered.length).toBeGreaterThan(0);
      expect(delivered.every((delivery) => delivery.status === "delivered")).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("accepts only deliveries signed with the demo owner's secret, within five minutes", async () => {
    const { db, partner } = await seeded();
    const [endpoint] = await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.name, DEMO_ENDPOINT_NAME), eq(webhookEndpoints.clientId, partner.client_id)));
    const [secret] = await signingSecretsFor(db, endpoint, new Date());
    const body = '{"event":"prospect.created"}';
    const now = Math.floor(Date.now() / 1000);
    expect(await isDemoDelivery(db, partner.owner_slug, signatureHeader([secret], now, body), body)).toBe(true);
    expect(await isDemoDelivery(db, partner.owner_slug, signatureHeader([secret], now, body), `${body} `)).toBe(false);
    expect(await isDemoDelivery(db, partner.owner_slug, signatureHeader(["another"], now, body), body)).toBe(false);
    expect(await isDemoDelivery(db, partner.owner_slug, signatureHeader([secret], now - 600, body), body)).toBe(false);
    expect(await isDemoDelivery(db, partner.owner_slug, "garbage", body)).toBe(false);
  });
});

describe("production (decisions §13: disabled)", () => {
  it("answers 404 on every demo route, even with a seeded partner", async () => {
    await seeded();
    const deliveries = await import("../../app/demo/api/deliveries/route");
    const prospects = await import("../../app/demo/api/prospects/route");
    const receiver = await import("../../app/demo/webhooks/route");
    const previous = process.env.APP_ENV;
    process.env.APP_ENV = "production";
    resetConfig();
    try {
      expect((await deliveries.GET()).status).toBe(404);
      expect((await prospects.GET()).status).toBe(404);
      const post = new Request("http://localhost/demo/api/prospects", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: '{"scenario":"standard"}',
      });
      expect((await prospects.POST(post)).status).toBe(404);
      expect((await receiver.POST(new Request("http://localhost/demo/webhooks", { method: "POST", body: "{}" }))).status).toBe(404);
      const { default: DemoPage } = await import("../../app/demo/page");
      await expect(DemoPage()).rejects.toThrow(/NEXT_HTTP_ERROR_FALLBACK;404|NEXT_NOT_FOUND/);
    } finally {
      process.env.APP_ENV = previous;
      resetConfig();
    }
    expect((await deliveries.GET()).status).toBe(200);
  });
});
