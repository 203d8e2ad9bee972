import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { newClient, newOwner, unique } from "../../test/factories";
import { call } from "../../test/http";
import { startProcess, until } from "../../test/processes";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";
import { RATE_LIMIT_MESSAGES } from "./messages";
import { createRateLimiter, policyOf } from "./rate-limit";

/** decisions §17 "The Partner API is fair too"; docs/decisions.md, "Partner developer: rate limits". */

function limits(values: { api?: number; token?: number; address?: number; trustProxy?: boolean }) {
  process.env.TRUST_PROXY = values.trustProxy ? "1" : "0";
  process.env.API_RATE_LIMIT_PER_SECOND = String(values.api ?? 1_000_000);
  process.env.TOKEN_RATE_LIMIT_PER_SECOND = String(values.token ?? 1_000_000);
  process.env.TOKEN_RATE_LIMIT_PER_ADDRESS_PER_SECOND = String(values.address ?? 1_000_000);
  resetConfig();
}
afterAll(() => limits({}));

async function ownerClient() {
  const client = await newClient();
  const owner = await newOwner(client);
  const token = await client.token();
  return { client, token, list: `/api/partners/${owner.slug}/webhooks/endpoints` };
}

const headersOf = (headers: Headers) => ({
  limit: headers.get("ratelimit-limit"),
  remaining: headers.get("ratelimit-remaining"),
  reset: headers.get("ratelimit-reset"),
});

describe("the Partner API's per-client request limit", () => {
  it("puts RateLimit-Limit, -Remaining and -Reset on a 2xx, and on an error answer of a counted request", async () => {
    const { token, list } = await ownerClient();
    limits({ api: 100 });
    const ok = await call("GET", list, { token });
    expect(ok.status).toBe(200);
    const first = headersOf(ok.headers);
    expect(first.limit).toBe("200");
    expect(Number(first.remaining)).toBeGreaterThanOrEqual(190);
    expect(Number(first.remaining)).toBeLessThan(200);
    expect(Number(first.reset)).toBeGreaterThanOrEqual(0);
    expect(Number(first.reset)).toBeLessThanOrEqual(2);
    const notFound = await call("GET", "/api/partners/no-such-owner/webhooks/endpoints", { token });
    expect(notFound.status).toBe(404);
    expect(headersOf(notFound.headers).limit).toBe("200");
    // An unauthenticated request is nobody's: no headers.
    const anonymous = await call("GET", list);
    expect([anonymous.status, anonymous.headers.get("ratelimit-limit")]).toEqual([401, null]);
  });

  it("answers 429 {status_code, error} with Retry-After and the headers beyond the limit with its bursts, and not to another client", async () => {
    const hammer = await ownerClient();
    const other = await ownerClient();
    limits({ api: 20 });
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 150 }, () => call("GET", hammer.list, { token: hammer.token })));
    const seconds = (performance.now() - started) / 1000;
    const admitted = answers.filter((answer) => answer.status === 200).length;
    const refused = answers.filter((answer) => answer.status === 429);
    expect(admitted + refused.length).toBe(150);
    // The burst (40) and what refilled meanwhile, with the few tokens one process holds ahead.
    expect(admitted).toBeGreaterThanOrEqual(40);
    expect(admitted).toBeLessThanOrEqual(Math.ceil((40 + 20 * seconds) * 1.1));
    expect(refused.length).toBeGreaterThan(0);
    const no = refused[0];
    expect(no.body).toEqual({ status_code: 429, error: RATE_LIMIT_MESSAGES.api });
    expect(Number(no.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(headersOf(no.headers)).toEqual({ limit: "40", remaining: "0", reset: "2" });
    const others = await call("GET", other.list, { token: other.token });
    expect(others.status).toBe(200);
    expect(Number(others.headers.get("ratelimit-remaining"))).toBeGreaterThanOrEqual(35);
  });

  it("a refused request changes nothing", async () => {
    const partner = await prospectPartner();
    limits({ api: 1 });
    // The burst of two, then nothing for a second.
    const spent = await Promise.all([0, 1, 2].map(() => call("GET", `${partner.base}/webhooks/endpoints`, { token: partner.token })));
    expect(spent.map((answer) => answer.status)).toContain(429);
    const id = unique("p");
    const refused = await partner.post(completeProspect(partner.source, id));
    expect([refused.status, refused.body]).toEqual([429, { status_code: 429, error: RATE_LIMIT_MESSAGES.api }]);
    limits({});
    const db = await getDb();
    const [row] = (await db.execute(
      sql`select count(*)::int as n from prospects p join sources s on s.id = p.source_id where s.code = ${partner.source} and p.source_prospect_id = ${id}`,
    )) as unknown as Array<{ n: number }>;
    expect(row.n).toBe(0);
    expect((await partner.get(id)).status).toBe(404);
  });

  it("limits /token per client id and per address, in the route's {status_code, error} shape", async () => {
    const client = await newClient();
    limits({ token: 1 });
    const exchange = (clientId: string, secret: string) =>
      call("POST", "/api/token", { body: { grant_type: "client_credentials", client_id: clientId, client_secret: secret, audience: client.audience } });
    const three = await Promise.all([0, 1, 2].map(() => exchange(client.clientId, client.secret)));
    const refused = three.find((answer) => answer.status === 429);
    expect(refused?.body).toEqual({ status_code: 429, error: RATE_LIMIT_MESSAGES.token });
    expect(Number(refused?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused?.headers.get("ratelimit-limit")).toBe("2");
    // Another client id is not held back by this one's limit…
    const another = await newClient();
    expect((await exchange(another.clientId, another.secret)).status).toBe(200);
    // …but one address is, whatever client ids (even unknown ones) it names.
    limits({ address: 1, trustProxy: true });
    const address = `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250)).join(".")}`;
    const guesses = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        call("POST", "/api/token", {
          headers: { "x-forwarded-for": address },
          body: { grant_type: "client_credentials", client_id: unique(`guess${i}`), client_secret: "x", audience: client.audience },
        }),
      ),
    );
    expect(guesses.map((answer) => answer.status).sort()).toEqual([401, 401, 429, 429]);
  });
});

describe("counted across web processes", () => {
  it("two web processes on one database admit together what one bucket allows, within 10 %", { timeout: 120_000 }, async () => {
    const a = await ownerClient();
    const b = await ownerClient();
    limits({ api: 2 });
    const second = startProcess(["src/test/door-process.ts"], { ...process.env, LOG_LEVEL: "silent" });
    await until(() => /listening \d+/.test(second.output()), 90_000, second.output);
    const port = /listening (\d+)/.exec(second.output())?.[1];
    const viaSecond = async (token: string, path: string) => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${token}` } });
      await response.arrayBuffer();
      return response.status;
    };
    const viaFirst = async (token: string, path: string) => (await call("GET", path, { token })).status;
    // The second process answers at all (its caches warm) before the measured window.
    expect(await viaSecond(b.token, b.list)).toBe(200);

    const counts = { first: 0, second: 0, refused: 0 };
    const started = performance.now();
    // Each worker alternates between the two processes, half of them starting with each: whichever
    // worker wins a token, its next request goes through the other door. Workers racing each on one
    // door could leave a door none of the dozen tokens (the in-process door is the slower one when the
    // machine is loaded), which would say nothing about the bucket.
    const worker = async (startWithFirst: boolean) => {
      let viaFirstNow = startWithFirst;
      while (performance.now() - started < 4_000) {
        const status = await (viaFirstNow ? viaFirst : viaSecond)(a.token, a.list);
        if (status === 200) counts[viaFirstNow ? "first" : "second"]++;
        else counts.refused++;
        viaFirstNow = !viaFirstNow;
      }
    };
    await Promise.all(Array.from({ length: 8 }, (_, i) => worker(i % 2 === 0)));
    const seconds = (performance.now() - started) / 1000;
    // One bucket of 2 a second with bursts of 4 admits 4 + 2 per second elapsed; at this rate no
    // process holds tokens ahead, so the two together admit that, give or take the last token.
    const allowed = 4 + 2 * seconds;
    expect(counts.refused).toBeGreaterThan(0);
    expect(counts.first).toBeGreaterThan(0);
    expect(counts.second).toBeGreaterThan(0);
    expect(counts.first + counts.second).toBeLessThanOrEqual(Math.floor(allowed * 1.1));
    expect(counts.first + counts.second).toBeGreaterThanOrEqual(Math.floor(allowed * 0.9) - 1);
    second.child.kill("SIGTERM");
    await second.exited;
  });
});

describe("the leases at the default limit", () => {
  it("two processes' limiters (each holding tokens ahead) admit within 10 % of one bucket of 100/s, bursts 200", { timeout: 60_000 }, async () => {
    const db = await getDb();
    const policy = policyOf(100);
    if (!policy) throw new Error("policy");
    const key = `api:${unique("client")}`;
    const limiters = [createRateLimiter(), createRateLimiter()];
    let admitted = 0;
    let refused = 0;
    const started = performance.now();
    const worker = async (limiter: (typeof limiters)[number]) => {
      while (performance.now() - started < 2_000) {
        if ((await limiter.take(db, key, policy)).admitted) admitted++;
        else refused++;
      }
    };
    await Promise.all(limiters.flatMap((limiter) => Array.from({ length: 25 }, () => worker(limiter))));
    const seconds = (performance.now() - started) / 1000;
    const allowed = 200 + 100 * seconds;
    expect(refused).toBeGreaterThan(0);
    expect(admitted).toBeLessThanOrEqual(allowed * 1.1);
    expect(admitted).toBeGreaterThanOrEqual(allowed * 0.9);
  });
});
