import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { generateOpenApiDocument } from "trpc-to-openapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { partnerOpenApiDocument, webMounts } from "../../composition/gateways";
import { ingestApiRouter, partnerApiRouter } from "../../composition/router";
import { signRequest } from "../../features/auth/request-signature";
import { casesFor, type FuzzCase, type Json, sampleOf } from "../../test/fuzz-cases";
import { throughDoor } from "../../test/http";
import { fixture, routesOf, validBody } from "../../test/route-fixture";
import { createFrontServer, type Mount } from "./front-server";
import { createRestGateway, MAX_BODY_BYTES } from "./rest-handler";

/**
 * The web process's one door (docs/decisions.md "Structure: one door into the gateways"): its
 * mount table hands `/api` and `/ingest` to the gateways, everything else to Next.js (here a
 * stand-in that says so). These tests hold the door to the gateways' own answers (every route's
 * malformed requests, as the fuzz suite sends them, through the door and to the gateway served
 * alone), the body limits on both sides of the table, and the routing.
 */

const partner = createRestGateway(partnerApiRouter, "/api");
const ingest = createRestGateway(ingestApiRouter, "/ingest");

type Listening = { url: string; close: () => Promise<void> };
function listen(server: http.Server): Promise<Listening> {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A server answering only through the gateways' own handlers, on their prefixes: no door in front. */
let doors: Listening;
beforeAll(async () => {
  doors = await listen(http.createServer((req, res) => void (req.url?.startsWith("/ingest") ? ingest : partner)(req, res)));
});
afterAll(async () => {
  await doors.close();
});

type Answer = { status: number; body: string; headers: Record<string, string | null> };
const HEADERS = ["content-type", "cache-control"];

async function answerOf(response: Response): Promise<Answer> {
  return {
    status: response.status,
    body: await response.text(),
    headers: Object.fromEntries(HEADERS.map((name) => [name, response.headers.get(name)])),
  };
}

function requestOf(base: string, fuzz: FuzzCase, gateway: "partner" | "ingest", token: string, secret: string): Request {
  const url = `${base}${gateway === "partner" ? "/api" : "/ingest"}${fuzz.path}`;
  const headers = new Headers(fuzz.headers);
  headers.set("authorization", `Bearer ${token}`);
  if (gateway === "partner") {
    const parsed = new URL(url);
    const rawBody = fuzz.body === undefined ? "" : typeof fuzz.body === "string" ? fuzz.body : new TextDecoder().decode(fuzz.body);
    headers.set("x-request-signature", signRequest(secret, { method: fuzz.method, pathWithQuery: parsed.pathname + parsed.search, rawBody }));
  }
  return new Request(url, { method: fuzz.method, headers, body: fuzz.body as BodyInit | undefined });
}

describe("the door answers as the gateways served alone do", () => {
  it("gives the same status, body and headers to every route's malformed requests", { timeout: 180_000 }, async () => {
    const f = await fixture();
    const partnerDoc = partnerOpenApiDocument() as unknown as Json;
    const ingestDoc = generateOpenApiDocument(ingestApiRouter, { title: "ingest", version: "1", baseUrl: "/ingest" }) as unknown as Json;
    const gateways = [
      { gateway: "partner" as const, routes: routesOf(partnerApiRouter, partnerDoc), doc: partnerDoc, token: f.partner.token },
      { gateway: "ingest" as const, routes: routesOf(ingestApiRouter, ingestDoc), doc: ingestDoc, token: f.ingestionToken },
    ];
    const differences: string[] = [];
    let compared = 0;
    for (const { gateway, routes, doc, token } of gateways) {
      for (const { route } of routes) {
        const names = Array.from(route.path.matchAll(/\{(\w+)\}/g), (m) => m[1]);
        const idFor = route.path.includes("/move_outs/") ? f.moveOutId : route.path.includes("/deliveries/") ? "wd_0" : f.endpointId;
        const pathValues = Object.fromEntries(names.map((name) => [name, name === "id" ? idFor : (f.pathValues as Record<string, string>)[name]]));
        const body = route.bodySchema ? validBody(route.path, f.partner.source, sampleOf(route.bodySchema, doc)) : undefined;
        for (const fuzz of casesFor({ ...route, pathValues, body })) {
          // The gateway alone first: a write it makes turns the door's `created` into `updated`.
          const viaNode = await answerOf(await fetch(requestOf(doors.url, fuzz, gateway, token, f.partner.client.secret)));
          const viaWeb = await answerOf(await throughDoor(requestOf("http://localhost:3999", fuzz, gateway, token, f.partner.client.secret)));
          compared++;
          // A write the first door made changes the second's answer (`created` then `updated`, a
          // deleted endpoint then 404): after a successful write only the absence of a 5xx is compared.
          const wrote = viaNode.status < 300 && fuzz.method !== "GET";
          const same = wrote ? viaWeb.status < 500 : JSON.stringify(viaNode) === JSON.stringify(viaWeb);
          if (!same) differences.push(`${fuzz.label}: alone ${JSON.stringify(viaNode).slice(0, 300)} ≠ door ${JSON.stringify(viaWeb).slice(0, 300)}`);
        }
      }
    }
    expect(differences.slice(0, 10)).toEqual([]);
    expect(compared).toBeGreaterThanOrEqual(1000);
  });

  it("answers HEAD as the door does, without a body, and keeps a caller's request id", async () => {
    const f = await fixture();
    const path = `/api/partners/${f.pathValues.owner_slug}/webhooks/endpoints`;
    const headers = { authorization: `Bearer ${f.partner.token}`, "x-request-id": "front-door-1" };
    const get = await fetch(`${doors.url}${path}`, { headers });
    expect(get.status).toBe(200);
    expect(get.headers.get("x-request-id")).toBe("front-door-1");
    expect(get.headers.get("cache-control")).toBe("no-store");
    const head = await fetch(`${doors.url}${path}`, { method: "HEAD", headers });
    const webHead = await throughDoor(new Request(`http://localhost${path}`, { method: "HEAD", headers }));
    expect(head.status).toBe(webHead.status);
    expect(await head.text()).toBe("");
    expect(head.headers.get("content-type")).toBe(webHead.headers.get("content-type"));
    expect(head.headers.get("x-request-id")).toBe("front-door-1");
  });
});

const MiB = 1024 * 1024;

/**
 * As curl sends a body: writes all 50 MiB (as fast as the socket takes it) before reading the
 * answer, or until a write fails; then reads what arrived. Without a lingering close on the
 * server's side the reset its close sends may discard the answer before it is read.
 */
function blast(base: string, path: string, header: string): Promise<string> {
  return new Promise<string>((resolve) => {
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
    socket.pause();
    let received = "";
    let sent = 0;
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    socket.on("data", (data) => {
      received += data.toString();
    });
    socket.on("error", () => socket.resume());
    socket.on("close", () => resolve(received));
    const more = () => {
      while (sent < 50 * MiB && !socket.destroyed) {
        sent += chunk.length;
        const framed = header.includes("chunked") ? Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from("\r\n")]) : chunk;
        if (!socket.write(framed)) return void socket.once("drain", more);
      }
      socket.resume();
    };
    socket.write(`POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n${header}\r\n\r\n`, more);
  });
}

/** A raw request on its own connection: what came back, and whether the server closed the connection. */
function rawRequest(
  base: string,
  options: http.RequestOptions,
  write: (req: http.ClientRequest) => void,
): Promise<{ status: number; body: string; connection?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${options.path}`, { ...options, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), connection: res.headers.connection }));
    });
    // The server may close while the body is still being written: the answer is what counts, and
    // one that does not follow within seconds was lost to the reset.
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE" && error.code !== "ECONNRESET") return reject(error);
      setTimeout(() => reject(new Error(`${error.code} and no answer`)), 5_000).unref();
    });
    write(req);
  });
}

describe("request bodies through a gateway", () => {
  it("refuses a declared body over the limit at once with 413, without reading it, and closes the connection", async () => {
    const answer = await rawRequest(
      doors.url,
      { method: "POST", path: "/api/token", headers: { "content-type": "application/json", "content-length": String(MAX_BODY_BYTES + 1) } },
      (req) => req.write("{"),
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ status_code: 413, error: `Request body exceeds ${MAX_BODY_BYTES} bytes` });
    expect(answer.connection).toBe("close");
  });

  it("stops reading a chunked body once it passes the limit, with 413", async () => {
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    // Up to four times the limit, unless the server has answered and closed before.
    let sent = 0;
    let sentWhenAnswered = 0;
    const answer = await rawRequest(
      doors.url,
      { method: "POST", path: "/api/token", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
      (req) => {
        req.once("response", () => {
          sentWhenAnswered = sent;
        });
        const more = () => {
          while (sent < 4 * MAX_BODY_BYTES && !req.destroyed && sentWhenAnswered === 0) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once("drain", more);
          }
          if (!req.destroyed) req.end();
        };
        more();
      },
    );
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body).status_code).toBe(413);
    expect(answer.connection).toBe("close");
    // Answered while the sender was still writing: the rest was never read.
    expect(sentWhenAnswered).toBeGreaterThan(0);
    expect(sentWhenAnswered).toBeLessThan(4 * MAX_BODY_BYTES);
  });

  it("lets a sender that keeps writing read its 413 before the connection closes (lingering close)", async () => {
    for (let round = 0; round < 5; round++) {
      for (const header of [`Content-Length: ${50 * MiB}`, "Transfer-Encoding: chunked"]) {
        const received = await blast(doors.url, "/api/token", header);
        expect(received.split("\r\n")[0], `${header}, round ${round}`).toBe("HTTP/1.1 413 Payload Too Large");
        expect(received, header).toContain(`"status_code":413`);
      }
    }
  });

  it("survives a caller that goes away mid-body, and answers the next request", async () => {
    await new Promise<void>((resolve) => {
      const req = http.request(`${doors.url}/api/token`, {
        method: "POST",
        agent: false,
        headers: { "content-type": "application/json", "content-length": "1000" },
      });
      req.on("error", () => resolve());
      req.write('{"grant_type":');
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 50);
    });
    const next = await fetch(`${doors.url}/api/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(next.status).toBe(400);
    expect((await next.json()).error).toBe("invalid_request");
  });

  it("decodes the body as `Request.text()` does: a leading byte-order mark dropped, invalid UTF-8 replaced", async () => {
    for (const body of [Buffer.from('\uFEFF{"grant_type":"client_credentials"}'), Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d])]) {
      const init = { method: "POST", headers: { "content-type": "application/json" }, body };
      const viaNode = await answerOf(await fetch(`${doors.url}/api/token`, init));
      // The same request with its body as `Request.text()` decodes it, sent as plain UTF-8.
      const decoded = Buffer.from(await new Request("http://localhost/", init).text());
      const viaWeb = await answerOf(await fetch(`${doors.url}/api/token`, { ...init, body: decoded }));
      expect(viaNode).toEqual(viaWeb);
    }
  });
});

describe('request bodies on paths Next.js serves (docs/decisions.md "Hardening: request bodies and page headers")', () => {
  let front: Listening;
  const nextSaw: { url: string; bytes?: number }[] = [];
  beforeAll(async () => {
    // Stands in for Next.js as a route reads a body: the Node request made a web `Request` whose
    // body streams from it, read whole; past the limit the route answers 413.
    front = await listen(
      createFrontServer({
        mounts: webMounts,
        next: async (req, res) => {
          nextSaw.push({ url: req.url ?? "" });
          const request = new Request(`http://localhost${req.url}`, {
            method: req.method,
            headers: req.headers as Record<string, string>,
            body: req.method === "POST" ? (Readable.toWeb(req) as ReadableStream) : undefined,
            duplex: "half",
          } as RequestInit);
          const bytes = (await request.arrayBuffer()).byteLength;
          const status = bytes > MAX_BODY_BYTES ? 413 : 200;
          const body = status === 413 ? { status_code: 413, error: `Request body exceeds ${MAX_BODY_BYTES} bytes` } : { bytes };
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify(body));
        },
      }),
    );
  });
  afterAll(async () => {
    await front.close();
  });

  it("cuts a chunked body one byte past the limit: the route answers 413, the sender is stopped and the connection closed", async () => {
    for (const path of ["/console/x|y", "/console/x%7Cy", "/enroll/acme/"]) {
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      let sent = 0;
      let sentWhenAnswered = 0;
      const answer = await rawRequest(
        front.url,
        { method: "POST", path, headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
        (req) => {
          req.once("response", () => {
            sentWhenAnswered = sent;
          });
          const more = () => {
            while (sent < 50 * MiB && !req.destroyed && sentWhenAnswered === 0) {
              sent += chunk.length;
              if (!req.write(chunk)) return void req.once("drain", more);
            }
            if (!req.destroyed) req.end();
          };
          more();
        },
      );
      expect(answer.status, path).toBe(413);
      expect(JSON.parse(answer.body), path).toEqual({ status_code: 413, error: `Request body exceeds ${MAX_BODY_BYTES} bytes` });
      expect(answer.connection, path).toBe("close");
      expect(sentWhenAnswered, path).toBeGreaterThan(0);
      expect(sentWhenAnswered, path).toBeLessThan(20 * MiB);
    }
    expect(nextSaw.map((saw) => saw.url)).toEqual(["/console/x|y", "/console/x%7Cy", "/enroll/acme/"]);
  });

  it("refuses a declared body over the limit at once, unread, before Next.js sees it", async () => {
    nextSaw.length = 0;
    for (const path of ["/api/x%7Cy", "/console/api/trpc/x"]) {
      const answer = await rawRequest(
        front.url,
        { method: "POST", path, headers: { "content-type": "application/json", "content-length": String(50 * MiB) } },
        (req) => req.write("{"),
      );
      expect(answer.status, path).toBe(413);
      expect(JSON.parse(answer.body), path).toEqual({ status_code: 413, error: `Request body exceeds ${MAX_BODY_BYTES} bytes` });
      expect(answer.connection, path).toBe("close");
    }
    expect(nextSaw).toEqual([]);
  });

  it("lets a sender that keeps writing read its 413 before the connection closes (lingering close)", async () => {
    for (let round = 0; round < 5; round++) {
      for (const [path, header] of [
        ["/console/api/trpc/x", `Content-Length: ${50 * MiB}`],
        ["/api/x|y", "Transfer-Encoding: chunked"],
      ]) {
        const received = await blast(front.url, path, header);
        expect(received.split("\r\n")[0], `${path}, round ${round}`).toBe("HTTP/1.1 413 Payload Too Large");
        expect(received, path).toContain(`"status_code":413`);
      }
    }
  });

  it("hands a body within the limit to Next.js whole", async () => {
    const body = JSON.stringify({ grant_type: "client_credentials", pad: " ".repeat(MAX_BODY_BYTES - 100) });
    const answer = await rawRequest(
      front.url,
      { method: "POST", path: "/console/x%7Cy", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } },
      (req) => {
        for (let i = 0; i < body.length; i += 100_000) req.write(body.slice(i, i + 100_000));
        req.end();
      },
    );
    // Past the body, the route's own answer.
    expect(answer.status).not.toBe(413);
    expect(answer.status).toBeLessThan(500);
  });
});

describe("the door's routing", () => {
  let front: Listening;
  const nextSaw: string[] = [];
  beforeAll(async () => {
    // Stands in for Next.js (the part not under test here): it says who answered.
    front = await listen(
      createFrontServer({
        mounts: webMounts,
        next: async (req, res) => {
          nextSaw.push(req.url ?? "");
          res.writeHead(200, { "content-type": "text/plain" });
          res.end("next");
        },
      }),
    );
  });
  afterAll(async () => {
    await front.close();
  });

  it("sends gateway paths to the gateways, the docs to their own handlers, and everything else to Next.js", async () => {
    const viaGateway = await fetch(`${front.url}/api/partners/acme/prospects`, { method: "POST" });
    expect(viaGateway.status).toBe(401);
    expect(await viaGateway.json()).toEqual({ message: "Unauthorized" });
    expect((await fetch(`${front.url}/ingest/events`, { method: "POST" })).status).toBe(401);
    // Mounted by prefix: what Next.js used to normalize or decode first reaches the gateway as sent.
    for (const path of ["/api/partners/acme/", "/api/partners/%61cme", "/api", "/ingest"]) {
      const answer = await fetch(`${front.url}${path}`, { redirect: "manual" });
      expect(answer.headers.get("x-request-id"), path).toEqual(expect.any(String));
      expect(await answer.text(), path).not.toBe("next");
    }
    expect((await fetch(`${front.url}/api/openapi.json`)).headers.get("content-type")).toBe("application/json");
    expect((await fetch(`${front.url}/api/docs`)).headers.get("content-type")).toBe("text/html; charset=utf-8");
    for (const path of ["/healthz/x", "/console", "/apis/x", "/ingestion/x", "/console/api/auth/session"]) {
      const answer = await fetch(`${front.url}${path}`, { redirect: "manual" });
      expect(await answer.text(), path).toBe("next");
    }
    expect(nextSaw).toEqual(["/healthz/x", "/console", "/apis/x", "/ingestion/x", "/console/api/auth/session"]);
    // Liveness is the door's own (decisions §14, Health): Next.js never sees it.
    expect(await (await fetch(`${front.url}/healthz`)).json()).toEqual({ status: "ok" });
    expect(nextSaw).not.toContain("/healthz");
  });

  it("answers a gateway that fails outright with the internal error body, never a hang", async () => {
    const failing: Mount = {
      path: "/api",
      gateway: true,
      handler: async () => {
        throw new Error("boom");
      },
    };
    const broken = await listen(createFrontServer({ mounts: [failing], next: async () => {} }));
    try {
      const answer = await fetch(`${broken.url}/api/token`);
      expect(answer.status).toBe(500);
      expect(answer.headers.get("content-type")).toBe("application/json");
      expect((await answer.json()).status_code).toBe(500);
    } finally {
      await broken.close();
    }
  });
});
