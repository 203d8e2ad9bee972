import { execFileSync, spawn } from "node:child_process";
import { scrypt } from "node:crypto";
import dgram from "node:dgram";
import fs from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { receiversOfThisFile } from "../../test/https-receiver";
import { attemptDeliveries } from "./deliver";
import { emitEvent } from "./emit";
import { LEASE_FAILURE } from "./http-post";
import { webhookPartner } from "./webhook-test-helpers";
import { webhookAttempts, webhookDeliveries } from "./webhooks.table";

const receiver = receiversOfThisFile();
const sockets: dgram.Socket[] = [];
afterAll(() => {
  for (const socket of sockets) socket.close();
});
afterEach(() => {
  delete process.env.WEBHOOK_DNS_SERVERS;
  delete process.env.WEBHOOK_LEASE_SECONDS;
  resetConfig();
});

/** A real UDP nameserver on loopback: `silent` never answers; `nxdomain` answers that no name exists. */
async function nameserver(mode: "silent" | "nxdomain") {
  const socket = dgram.createSocket("udp4");
  sockets.push(socket);
  const queries: string[] = [];
  socket.on("message", (query, from) => {
    queries.push(query.subarray(12).toString("latin1"));
    if (mode === "silent") return;
    const answer = Buffer.from(query);
    answer[2] |= 0x80; // QR: a response
    answer[3] = 0x80 | 3; // RA, RCODE 3: NXDOMAIN
    socket.send(answer, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address() as AddressInfo;
  process.env.WEBHOOK_DNS_SERVERS = `127.0.0.1:${port}`;
  resetConfig();
  return { queries };
}

/** One event to endpoints at `urls` (one owner), its deliveries by URL; no job left to race the test. */
async function deliveriesTo(...urls: string[]) {
  const { owner, register } = await webhookPartner();
  const endpoints = new Map<string, string>();
  for (const url of urls) endpoints.set(await register(url, ["prospect.created"]), url);
  const db = await getDb();
  await emitEvent(db, { ownerId: owner.id, ownerSlug: owner.slug, event: "prospect.created", data: { id: "dns" } });
  await db.execute(sql`delete from graphile_worker._private_jobs`);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.endpointId, [...endpoints.keys()]));
  return { ids: rows.map((row) => row.id), of: (url: string) => rows.find((row) => endpoints.get(row.endpointId) === url)?.id as string };
}

async function rows(ids: string[]) {
  const db = await getDb();
  const deliveries = await db.select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids));
  const attempts = await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids));
  return { delivery: (id: string) => deliveries.find((row) => row.id === id), attempts: (id: string) => attempts.filter((a) => a.deliveryId === id) };
}

/** Thread-pool work (a file read and a small scrypt) every 200 ms until stopped: the slowest, in ms. */
function probeThreadPool() {
  let slowest = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await Promise.all([
        fs.promises.readFile(import.meta.filename),
        new Promise((resolve, reject) => scrypt("password", "salt", 32, { N: 2 ** 12 }, (error, key) => (error ? reject(error) : resolve(key)))),
      ]);
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return async () => {
    running = false;
    await loop;
    return slowest;
  };
}

describe("DNS has a deadline (docs/decisions.md, Hardening: deliveries)", () => {
  it("records a timeout within the 10 s budget when the nameserver never answers, without holding the batch or the thread pool", async () => {
    const hook = await receiver(200);
    const silentUrl = "https://hook.silent.example:8443/hook";
    const { ids, of } = await deliveriesTo(silentUrl, hook.url);
    const ns = await nameserver("silent");
    const stopProbe = probeThreadPool();
    const started = Date.now();

    await attemptDeliveries(ids);

    const elapsed = Date.now() - started;
    const slowest = await stopProbe();
    expect(ns.queries.some((query) => query.includes("silent"))).toBe(true);
    const after = await rows(ids);
    const silent = after.delivery(of(silentUrl));
    expect(silent).toMatchObject({ status: "retrying", attemptNumber: 1, leaseExpiresAt: null });
    expect(silent?.lastAttemptFailureReason).toMatch(/^timeout: .*DNS lookup of hook\.silent\.example/);
    expect(silent?.durationMs).toBeLessThan(11_000);
    expect(after.attempts(of(silentUrl))).toHaveLength(1);
    // The batch ended well inside its 30 s lease; the other delivery went out at once.
    expect(elapsed).toBeLessThan(12_000);
    expect(after.delivery(of(hook.url))).toMatchObject({ status: "delivered", attemptNumber: 1 });
    expect(hook.received[0].receivedAt - started).toBeLessThan(2_000);
    // Console logins (scrypt) and file reads share libuv's thread pool: it stayed free.
    expect(slowest).toBeLessThan(1_000);
  }, 30_000);

  it("keeps the deadline for names only the system knows (/etc/hosts), even with every thread-pool thread taken", async () => {
    const unknownUrl = "https://hosts-only.example:8443/hook";
    const { ids, of } = await deliveriesTo(unknownUrl);
    await nameserver("nxdomain");
    // Every libuv thread blocked opening a FIFO nobody writes: a lookup through the system queues behind them.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pool-"));
    const fifos = Array.from({ length: Number(process.env.UV_THREADPOOL_SIZE ?? 4) }, (_, i) => path.join(dir, `fifo-${i}`));
    for (const fifo of fifos) execFileSync("mkfifo", [fifo]);
    const blocked = fifos.map((fifo) => fs.promises.readFile(fifo).catch(() => undefined));
    const started = Date.now();
    let outcome: "settled" | "still waiting";
    try {
      outcome = await Promise.race([
        attemptDeliveries(ids).then(() => "settled" as const),
        new Promise<"still waiting">((resolve) => setTimeout(() => resolve("still waiting"), 15_000)),
      ]);
    } finally {
      // Writers open and close each FIFO (a child process: no thread of ours needed), freeing the pool.
      await new Promise((resolve) => spawn("sh", ["-c", `for f in ${fifos.join(" ")}; do : > "$f"; done`]).on("exit", resolve));
      await Promise.all(blocked);
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(outcome).toBe("settled");
    expect(Date.now() - started).toBeLessThan(12_000);
    expect((await rows(ids)).delivery(of(unknownUrl))).toMatchObject({
      status: "retrying",
      attemptNumber: 1,
      lastAttemptFailureReason: "timeout: no complete answer within 10 s (DNS lookup of hosts-only.example)",
    });
  }, 40_000);
});

describe("no batch outlives its lease (docs/decisions.md, Hardening: deliveries)", () => {
  it("settles at two thirds of the lease: the unanswered attempt as a counted timeout, the others as answered", async () => {
    const slow = await receiver({ status: 200, delayMs: 5_000 });
    const fast = await receiver(200);
    const { ids, of } = await deliveriesTo(slow.url, fast.url);
    process.env.WEBHOOK_LEASE_SECONDS = "3";
    resetConfig();
    const started = Date.now();

    const settled = await attemptDeliveries(ids);

    expect(Date.now() - started).toBeLessThan(3_000);
    expect(settled).toHaveLength(2);
    const after = await rows(ids);
    expect(after.delivery(of(fast.url))).toMatchObject({ status: "delivered", attemptNumber: 1 });
    expect(after.delivery(of(slow.url))).toMatchObject({ status: "retrying", attemptNumber: 1, lastAttemptFailureReason: LEASE_FAILURE, leaseExpiresAt: null });
    expect(after.attempts(of(slow.url)).map((a) => a.failureReason)).toEqual([LEASE_FAILURE]);
  }, 15_000);
});
