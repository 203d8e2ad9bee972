import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { unique } from "../../test/factories";
import { call, webDoorUrl } from "../../test/http";
import { until } from "../../test/processes";
import { closeGatesForMerge } from "../owners/merge/gate";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";
import { RATE_LIMIT_MESSAGES } from "./messages";
import { partnerSlots } from "./procedures";

/**
 * decisions §17 "The Partner API is fair too"; docs/decisions.md, "A fair Partner API": through the
 * web process's real door, over HTTP. A flooding client's writes are held inside their slot by its
 * owner's merge gate, closed as a merge closes it (a real lock in PostgreSQL), so its other requests
 * queue behind them for as long as the test needs.
 */

function fairQueue(values: { slots: number; queued: number; waitSeconds?: number }) {
  process.env.API_MAX_CONCURRENT = String(values.slots);
  process.env.API_MAX_QUEUED_PER_CLIENT = String(values.queued);
  process.env.API_MAX_QUEUE_WAIT_SECONDS = String(values.waitSeconds ?? 30);
  process.env.METRICS_TOKEN = "fair-queue-metrics";
  resetConfig();
}
const before = { ...process.env };
afterAll(() => {
  for (const name of ["API_MAX_CONCURRENT", "API_MAX_QUEUED_PER_CLIENT", "API_MAX_QUEUE_WAIT_SECONDS", "METRICS_TOKEN"]) {
    if (before[name] === undefined) delete process.env[name];
    else process.env[name] = before[name];
  }
  resetConfig();
});

/** Closes the owner's merge gate until `open` is called: its writes wait inside their slot. */
async function holdOwnerWrites(ownerId: number): Promise<{ open: () => Promise<void> }> {
  const db = await getDb();
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let closed = () => {};
  const gateClosed = new Promise<void>((resolve) => {
    closed = resolve;
  });
  const transaction = db.transaction(async (tx) => {
    await closeGatesForMerge(tx, [ownerId]);
    closed();
    await opened;
  });
  await gateClosed;
  return {
    open: async () => {
      open();
      await transaction;
    },
  };
}

/** When each prospect was written (its transaction's start), by `source_prospect_id`; absent: never written. */
async function writtenAt(ids: string[]): Promise<Map<string, number>> {
  const db = await getDb();
  const rows = (await db.execute(
    sql`select source_prospect_id as id, extract(epoch from created_at)::float8 as at from prospects where source_prospect_id in ${ids}`,
  )) as unknown as Array<{ id: string; at: number }>;
  return new Map(rows.map((row) => [row.id, Number(row.at)]));
}

const slotsAre = (running: number, waiting: number) => () => {
  const now = partnerSlots.counts();
  return now.running === running && now.waiting === waiting;
};
const explainSlots = () => JSON.stringify(partnerSlots.counts());

async function metric(name: string): Promise<number> {
  const answer = await call("GET", "/metrics", { headers: { authorization: "Bearer fair-queue-metrics" } });
  const line = answer.text.split("\n").find((row) => row.startsWith(`${name} `));
  return Number(line?.split(" ")[1] ?? 0);
}

describe("the Partner API's fair queue in a web process", () => {
  it("serves a second client's request before a flooder's queued ones, and refuses the flooder beyond its queue with nothing written", async () => {
    const flood = await prospectPartner();
    const second = await prospectPartner();
    fairQueue({ slots: 1, queued: 3 });
    const refusalsBefore = await metric('pis_api_queue_refusals_total{reason="full"}');
    const gate = await holdOwnerWrites(flood.owner.id);
    const ids = {
      running: unique("f-run"),
      queued: [unique("f-q1"), unique("f-q2"), unique("f-q3")],
      refused: [unique("f-no1"), unique("f-no2")],
      second: unique("s"),
    };
    const answeredAt = new Map<string, number>();
    const sent = (id: string, answer: ReturnType<typeof flood.post>) =>
      answer.then((result) => {
        answeredAt.set(id, performance.now());
        return result;
      });
    try {
      const running = sent(ids.running, flood.post(completeProspect(flood.source, ids.running)));
      await until(slotsAre(1, 0), 10_000, explainSlots);
      const queued = ids.queued.map((id) => sent(id, flood.post(completeProspect(flood.source, id))));
      await until(slotsAre(1, 3), 10_000, explainSlots);
      expect(await metric("pis_api_requests_queued")).toBe(3);
      // Its queue is full: refused at once, while its other requests still wait.
      const refused = await Promise.all(ids.refused.map((id) => flood.post(completeProspect(flood.source, id), { "idempotency-key": `key-${id}` })));
      for (const answer of refused) {
        expect([answer.status, answer.body]).toEqual([429, { status_code: 429, error: RATE_LIMIT_MESSAGES.queueFull }]);
        expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
        for (const header of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"]) expect(answer.headers.get(header)).toMatch(/^\d+$/);
      }
      expect(await metric('pis_api_queue_refusals_total{reason="full"}')).toBe(refusalsBefore + 2);
      // The second client's one request joins last, behind the flooder's three.
      const secondAnswer = sent(ids.second, second.post(completeProspect(second.source, ids.second)));
      await until(slotsAre(1, 4), 10_000, explainSlots);
      await gate.open();
      const answers = await Promise.all([running, ...queued, secondAnswer]);
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);

      const written = await writtenAt([ids.running, ...ids.queued, ...ids.refused, ids.second]);
      // It ran next, as soon as the held request ended, before every request the flooder had waiting.
      for (const id of ids.queued) {
        expect(written.get(ids.second)).toBeLessThan(written.get(id) as number);
        expect(answeredAt.get(ids.second)).toBeLessThan(answeredAt.get(id) as number);
      }
      // The flooder's queue kept its own order.
      const order = ids.queued.map((id) => written.get(id) as number);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      // Nothing of the refused requests was written, and their Idempotency-Key was never claimed.
      for (const id of ids.refused) expect(written.has(id)).toBe(false);
      const retried = await flood.post(completeProspect(flood.source, ids.refused[0]), { "idempotency-key": `key-${ids.refused[0]}` });
      expect(retried.status).toBe(200);
      expect(retried.headers.get("idempotent-replayed")).toBeNull();
      expect(partnerSlots.counts()).toEqual({ running: 0, waiting: 0 });
    } finally {
      await gate.open();
    }
  });

  it("answers 429 to a request that waited longer than its bound, and never runs it", async () => {
    const flood = await prospectPartner();
    fairQueue({ slots: 1, queued: 10, waitSeconds: 0.5 });
    const timeoutsBefore = await metric('pis_api_queue_refusals_total{reason="timeout"}');
    const gate = await holdOwnerWrites(flood.owner.id);
    const held = unique("held");
    const late = unique("late");
    try {
      const running = flood.post(completeProspect(flood.source, held));
      await until(slotsAre(1, 0), 10_000, explainSlots);
      const started = performance.now();
      const answer = await flood.post(completeProspect(flood.source, late));
      expect(performance.now() - started).toBeGreaterThanOrEqual(450);
      expect([answer.status, answer.body]).toEqual([429, { status_code: 429, error: RATE_LIMIT_MESSAGES.queueTimeout }]);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(answer.headers.get("ratelimit-limit")).toMatch(/^\d+$/);
      expect(await metric('pis_api_queue_refusals_total{reason="timeout"}')).toBe(timeoutsBefore + 1);
      await gate.open();
      expect((await running).status).toBe(200);
      const written = await writtenAt([held, late]);
      expect([written.has(held), written.has(late)]).toEqual([true, false]);
    } finally {
      await gate.open();
    }
  });

  it("drops a queued request whose caller went away, without running it", async () => {
    const flood = await prospectPartner();
    fairQueue({ slots: 1, queued: 10 });
    const gate = await holdOwnerWrites(flood.owner.id);
    const held = unique("held");
    const gone = unique("gone");
    const after = unique("after");
    try {
      const running = flood.post(completeProspect(flood.source, held));
      await until(slotsAre(1, 0), 10_000, explainSlots);
      const caller = new AbortController();
      const abandoned = fetch(`${await webDoorUrl()}${flood.base}/prospects`, {
        method: "POST",
        headers: { authorization: `Bearer ${flood.token}`, "content-type": "application/json" },
        body: JSON.stringify({ prospect: completeProspect(flood.source, gone) }),
        signal: caller.signal,
      }).catch((error: unknown) => error);
      await until(slotsAre(1, 1), 10_000, explainSlots);
      caller.abort();
      expect(await abandoned).toBeInstanceOf(Error);
      // Out of the queue as soon as the connection closed, not when a slot freed.
      await until(slotsAre(1, 0), 10_000, explainSlots);
      const next = flood.post(completeProspect(flood.source, after));
      await until(slotsAre(1, 1), 10_000, explainSlots);
      await gate.open();
      expect((await running).status).toBe(200);
      expect((await next).status).toBe(200);
      const written = await writtenAt([held, gone, after]);
      expect([written.has(held), written.has(gone), written.has(after)]).toEqual([true, false, true]);
      expect(partnerSlots.counts()).toEqual({ running: 0, waiting: 0 });
    } finally {
      await gate.open();
    }
  });

  it("leaves the token exchange out of the queue", async () => {
    const flood = await prospectPartner();
    fairQueue({ slots: 1, queued: 0 });
    const gate = await holdOwnerWrites(flood.owner.id);
    try {
      const running = flood.post(completeProspect(flood.source, unique("held")));
      await until(slotsAre(1, 0), 10_000, explainSlots);
      const token = await call("POST", "/api/token", {
        body: { grant_type: "client_credentials", client_id: flood.client.clientId, client_secret: flood.client.secret, audience: flood.client.audience },
      });
      expect(token.status).toBe(200);
      // Every slot taken and no queue: the client's next API request is refused at once.
      const refused = await call("GET", `${flood.base}/webhooks/endpoints`, { token: flood.token });
      expect(refused.status).toBe(429);
      await gate.open();
      expect((await running).status).toBe(200);
    } finally {
      await gate.open();
    }
  });
});
