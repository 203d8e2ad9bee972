import fs from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createTestCertificates } from "../../test/tls";
import { postJson } from "./http-post";

/**
 * The delivery POST verifies its receiver's certificate, on every connection of the one TLS context it
 * shares (docs/decisions.md, Hardening: deliveries): a receiver whose certificate no trusted authority
 * signed gets no request, and the attempt fails with the TLS error; a trusted one is still reached
 * on connections made after it.
 */
const servers: https.Server[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pis-untrusted-"));
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  fs.rmSync(dir, { recursive: true, force: true });
});

async function receiverWith(tls: { key: string; cert: string }) {
  const requests: string[] = [];
  const server = https.createServer({ key: fs.readFileSync(tls.key), cert: fs.readFileSync(tls.cert) }, (req, res) => {
    requests.push(String(req.headers["x-test"]));
    req.resume();
    req.on("end", () => res.writeHead(200).end());
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `https://localhost:${(server.address() as AddressInfo).port}/hook`, requests };
}

describe("the delivery POST over TLS", () => {
  it("refuses a receiver whose certificate no trusted authority signed, and still reaches a trusted one", async () => {
    // An authority of its own, not the tests' (NODE_EXTRA_CA_CERTS): nothing this process trusts.
    const untrusted = await receiverWith(createTestCertificates(path.join(dir, "other-ca")));
    const trusted = await receiverWith({ key: process.env.TEST_TLS_KEY ?? "", cert: process.env.TEST_TLS_CERT ?? "" });

    const refused = await postJson(untrusted.url, { "x-test": "untrusted" }, "{}");
    expect(refused.status).toBeNull();
    expect(refused.failure).toMatch(/^UNABLE_TO_VERIFY_LEAF_SIGNATURE: |^SELF_SIGNED_CERT_IN_CHAIN: |^UNABLE_TO_GET_ISSUER_CERT_LOCALLY: /);
    expect(untrusted.requests).toEqual([]);

    for (let i = 0; i < 3; i++) {
      const answered = await postJson(trusted.url, { "x-test": `trusted-${i}` }, "{}");
      expect(answered).toMatchObject({ status: 200, failure: null });
    }
    expect(trusted.requests).toEqual(["trusted-0", "trusted-1", "trusted-2"]);
    // Asked again, the untrusted one is refused again: nothing of the trusted connections carries over.
    expect((await postJson(untrusted.url, { "x-test": "again" }, "{}")).status).toBeNull();
    expect(untrusted.requests).toEqual([]);
  });
});
