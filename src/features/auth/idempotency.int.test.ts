import { sql } from "drizzle-orm";
import { parseCrontab } from "graphile-worker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "../../server/db/client";
import { errors } from "../../server/errors";
import { addJob, crontabOf } from "../../server/jobs/define-task";
import { router } from "../../server/trpc/init";
import { newClient, unique } from "../../test/factories";
import { call, gatewayDoor } from "../../test/http";
import { startReceiver } from "../../test/https-receiver";
import { runDueJobs } from "../../test/jobs";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";
import { pruneIdempotencyKeys } from "./idempotency";
import { idempotencyKeyPrune } from "./idempotency_key__prune";
import { IDEMPOTENCY_MESSAGES } from "./messages";
import { partnerProcedure } from "./procedures";

/** decisions §16 Idempotency keys; docs/decisions.md, "Partner developer: idempotency keys". */

const closers: Array<() => Promise<void>> = [];
afterAll(async () => Promise.all(closers.map((close) => close())));

let partner: Awaited<ReturnType<typeof prospectPartner>>;
beforeAll(async () => {
  partner = await prospectPartner();
});

const prospectsOf = async (source: string, sourceProspectId: string) => {
  const db = await getDb();
  const rows = (await db.execute(
    sql`select count(*)::int as n from prospects p join sources s on s.id = p.source_id where s.code = ${source} and p.source_prospect_id = ${sourceProspectId}`,
  )) as unknown as Array<{ n: number }>;
  return rows[0].n;
};

describe("Idempotency-Key on the Partner API's POSTs", () => {
  it("keeps an answer sealed at rest: a portal session's link is replayed, and never stored in clear", async () => {
    const key = unique("portal-key");
    const first = await call<{ url: string }>("POST", `${partner.base}/portal_sessions`, {
      token: partner.token,
      body: {},
      headers: { "idempotency-key": key },
    });
    expect(first.status).toBe(201);
    const second = await call<{ url: string }>("POST", `${partner.base}/portal_sessions`, {
      token: partner.token,
      body: {},
      headers: { "idempotency-key": key },
    });
    expect([second.status, second.headers.get("idempotent-replayed"), second.body.url]).toEqual([201, "true", first.body.url]);
    const db = await getDb();
    const stored = (await db.execute(sql`select response_body from idempotency_keys where key = ${key}`)) as unknown as Array<{ response_body: string }>;
    expect(stored).toHaveLength(1);
    expect(stored[0].response_body).not.toContain(first.body.url.split("/").pop());
    expect(stored[0].response_body).not.toContain("portal");
  });

  it("replays the first answer (status, body, Idempotent-Replayed) and does nothing again: one row, one prospect.created", async () => {
    const hook = await startReceiver();
    closers.push(hook.close);
    const subscribed = await call("POST", `${partner.base}/webhooks/endpoints`, {
      token: partner.token,
      body: { endpoint: { name: "created", destination_url: hook.url, events: ["prospect.created"] } },
    });
    expect(subscribed.status).toBe(201);
    const id = unique("idem");
    const key = unique("key");
    const first = await partner.post(completeProspect(partner.source, id), { "idempotency-key": key });
    // spec Prospect rules 1: HTTP 200 both ways, the body's status_code says 201 on create.
    expect([first.status, first.body.status_code]).toEqual([200, 201]);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await partner.post(completeProspect(partner.source, id), { "idempotency-key": key });
    expect(second.status).toBe(200);
    expect(second.text).toBe(first.text);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.headers.get("content-type")).toBe("application/json");
    expect(second.headers.get("x-request-id")).not.toBe(first.headers.get("x-request-id"));
    await runDueJobs();
    const created = hook.received.map((r) => JSON.parse(r.rawBody) as { event: string }).filter((b) => b.event === "prospect.created");
    expect(created).toHaveLength(1);
    expect(await prospectsOf(partner.source, id)).toBe(1);
    // Without the key, the same POST runs again (an update: 200).
    const again = await partner.post(completeProspect(partner.source, id));
    expect([again.status, again.body.status_code]).toEqual([200, 200]);
  });

  it("answers 422 {status_code, error} to the same key with another body, and changes nothing", async () => {
    const key = unique("key");
    const id = unique("idem");
    expect((await partner.post(completeProspect(partner.source, id), { "idempotency-key": key })).status).toBe(200);
    const other = unique("idem");
    const reused = await partner.post(completeProspect(partner.source, other), { "idempotency-key": key });
    expect({ status: reused.status, body: reused.body }).toEqual({ status: 422, body: { status_code: 422, error: IDEMPOTENCY_MESSAGES.reused } });
    expect(await prospectsOf(partner.source, other)).toBe(0);
    // Another path with the same key and body is another request too.
    const elsewhere = await call("POST", `${partner.base}/move_outs`, { token: partner.token, body: {}, headers: { "idempotency-key": key } });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toEqual({ status_code: 422, error: IDEMPOTENCY_MESSAGES.reused });
  });

  it("answers 400 {status_code, error} to a key that is empty, too long or not visible ASCII, and changes nothing", async () => {
    for (const key of ["", "x".repeat(256), "has space", "é-key", "tab\tkey"]) {
      const id = unique("idem");
      const answer = await partner.post(completeProspect(partner.source, id), { "idempotency-key": key });
      expect({ key, status: answer.status, body: answer.body }).toEqual({
        key,
        status: 400,
        body: { status_code: 400, error: IDEMPOTENCY_MESSAGES.invalidKey },
      });
      expect(await prospectsOf(partner.source, id)).toBe(0);
    }
    const longest = await partner.post(completeProspect(partner.source, unique("idem")), { "idempotency-key": "~".repeat(255) });
    expect(longest.status).toBe(200);
  });

  it("keys are per client: another client's same key is independent", async () => {
    const other = await prospectPartner();
    const key = unique("key");
    const mineBody = completeProspect(partner.source, unique("idem"));
    const theirsBody = completeProspect(other.source, unique("idem"));
    const mine = await partner.post(mineBody, { "idempotency-key": key });
    const theirs = await other.post(theirsBody, { "idempotency-key": key });
    expect([mine.body.status_code, theirs.body.status_code]).toEqual([201, 201]);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    // Each client's key replays its own answer.
    const mineAgain = await partner.post(mineBody, { "idempotency-key": key });
    const theirsAgain = await other.post(theirsBody, { "idempotency-key": key });
    expect([mineAgain.text, theirsAgain.text]).toEqual([mine.text, theirs.text]);
    expect([mineAgain.headers.get("idempotent-replayed"), theirsAgain.headers.get("idempotent-replayed")]).toEqual(["true", "true"]);
  });

  it("does not keep a failed answer: a 4xx releases the key, and the fixed request runs", async () => {
    const key = unique("key");
    const id = unique("idem");
    const bad = await partner.post({ ...completeProspect(partner.source, id), phone: 12 }, { "idempotency-key": key });
    expect(bad.status).toBe(422);
    const fixed = await partner.post(completeProspect(partner.source, id), { "idempotency-key": key });
    expect([fixed.status, fixed.body.status_code]).toEqual([200, 201]);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
  });

  it("two requests at once with one key: one runs, the other answers 409 or the replay", async () => {
    const key = unique("key");
    const id = unique("idem");
    const answers = await Promise.all(Array.from({ length: 6 }, () => partner.post(completeProspect(partner.source, id), { "idempotency-key": key })));
    const ran = answers.filter((a) => a.status === 200 && a.headers.get("idempotent-replayed") === null);
    expect(ran).toHaveLength(1);
    for (const answer of answers) {
      if (answer === ran[0]) continue;
      if (answer.status === 409) expect(answer.body).toEqual({ status_code: 409, error: IDEMPOTENCY_MESSAGES.inFlight });
      else
        expect({ status: answer.status, replayed: answer.headers.get("idempotent-replayed"), text: answer.text }).toEqual({
          status: 200,
          replayed: "true",
          text: ran[0].text,
        });
    }
    expect(await prospectsOf(partner.source, id)).toBe(1);
  });

  it("does not cover the token exchange or GET", async () => {
    const key = unique("key");
    const get = await call("GET", `${partner.base}/prospects/${partner.source}/none`, { token: partner.token, headers: { "idempotency-key": "" } });
    expect(get.status).toBe(404);
    const token = await call("POST", "/api/token", { body: { grant_type: "client_credentials" }, headers: { "idempotency-key": key } });
    const again = await call("POST", "/api/token", { body: { grant_type: "client_credentials" }, headers: { "idempotency-key": key } });
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.status).toBe(token.status);
  });

  it("prunes keys older than 24 h, and an expired key is taken again", async () => {
    const key = unique("key");
    const id = unique("idem");
    expect((await partner.post(completeProspect(partner.source, id), { "idempotency-key": key })).status).toBe(200);
    const db = await getDb();
    await db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = ${key}`);
    // Expired but not yet pruned: another body under the key is a new request.
    const other = unique("idem");
    expect((await partner.post(completeProspect(partner.source, other), { "idempotency-key": key })).status).toBe(200);
    await db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = ${key}`);
    const fresh = unique("key");
    expect((await partner.post(completeProspect(partner.source, unique("idem")), { "idempotency-key": fresh })).status).toBe(200);
    await addJob(db, idempotencyKeyPrune, { _cron: { ts: new Date().toISOString(), backfilled: false } } as never);
    await runDueJobs();
    const left = (await db.execute(sql`select key from idempotency_keys where key in (${key}, ${fresh})`)) as unknown as Array<{ key: string }>;
    expect(left.map((row) => row.key)).toEqual([fresh]);
    expect(await pruneIdempotencyKeys(db)).toBe(0);
  });

  it("the prune runs every hour, making up a missed hour", () => {
    const crontab = crontabOf([idempotencyKeyPrune]);
    expect(parseCrontab(crontab)).toMatchObject([{ task: "idempotency_key__prune", options: { backfillPeriod: 3_600_000 } }]);
  });
});

/**
 * A probe route on the real gateway and the real partner builder, to hold a request in flight and to
 * fail with a 5xx on demand (nothing else of the service is replaced).
 */
describe("Idempotency-Key: in flight and 5xx", () => {
  let release: () => void = () => {};
  let failNext = false;
  let runs = 0;
  const probe = router({
    slow: partnerProcedure("prospects:write")
      .meta({ openapi: { method: "POST", path: "/probe/slow" } })
      .input(z.object({ n: z.number() }))
      .output(z.object({ runs: z.number() }))
      .mutation(async () => {
        runs += 1;
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        return { runs };
      }),
    flaky: partnerProcedure("prospects:write")
      .meta({ openapi: { method: "POST", path: "/probe/flaky" } })
      .input(z.object({ n: z.number() }))
      .output(z.object({ runs: z.number() }))
      .mutation(() => {
        runs += 1;
        if (failNext) {
          failNext = false;
          throw errors.unavailable("Try again shortly");
        }
        return { runs };
      }),
  });
  const door = gatewayDoor(probe, "/api");
  const send = (token: string, path: string, key: string, body: unknown) =>
    door(
      new Request(`http://localhost/api${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": key },
        body: JSON.stringify(body),
      }),
    );

  it("answers 409 while the first request is in flight, then replays its answer", async () => {
    const client = await newClient();
    const token = await client.token();
    const key = unique("key");
    runs = 0;
    const first = send(token, "/probe/slow", key, { n: 1 });
    for (let i = 0; i < 100 && runs === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    const during = await send(token, "/probe/slow", key, { n: 1 });
    expect({ status: during.status, body: await during.json() }).toEqual({ status: 409, body: { status_code: 409, error: IDEMPOTENCY_MESSAGES.inFlight } });
    release();
    const done = await first;
    expect({ status: done.status, body: await done.json() }).toEqual({ status: 200, body: { runs: 1 } });
    const after = await send(token, "/probe/slow", key, { n: 1 });
    expect({ status: after.status, replayed: after.headers.get("idempotent-replayed"), body: await after.json() }).toEqual({
      status: 200,
      replayed: "true",
      body: { runs: 1 },
    });
    expect(runs).toBe(1);
  });

  it("does not keep a 5xx: the key is released and the retry runs", async () => {
    const client = await newClient();
    const token = await client.token();
    const key = unique("key");
    runs = 0;
    failNext = true;
    const failed = await send(token, "/probe/flaky", key, { n: 1 });
    expect(failed.status).toBe(503);
    const retried = await send(token, "/probe/flaky", key, { n: 1 });
    expect({ status: retried.status, replayed: retried.headers.get("idempotent-replayed"), body: await retried.json() }).toEqual({
      status: 200,
      replayed: null,
      body: { runs: 2 },
    });
    const replayed = await send(token, "/probe/flaky", key, { n: 1 });
    expect({ status: replayed.status, replayed: replayed.headers.get("idempotent-replayed"), body: await replayed.json() }).toEqual({
      status: 200,
      replayed: "true",
      body: { runs: 2 },
    });
    expect(runs).toBe(2);
  });
});
