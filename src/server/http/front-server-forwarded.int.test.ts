import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../config";
import { createFrontServer } from "./front-server";

/**
 * The client address Next.js's routes read (`X-Forwarded-For`, last entry: the console's sign-in
 * limits, decisions §15) is the connection's own, unless `TRUST_PROXY=1` says a reverse proxy in
 * front appends the real one. Next.js keeps a header it is given, so the front server decides.
 */

/** A front server whose Next.js stand-in answers the X-Forwarded-For it was handed. */
async function frontServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createFrontServer({
    mounts: [],
    next: async (req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(String(req.headers["x-forwarded-for"] ?? ""));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((done) => server.close(() => done())),
  };
}

async function forwardedFor(url: string, header?: string): Promise<string> {
  const response = await fetch(`${url}/console/api/auth/callback/credentials`, { headers: header ? { "x-forwarded-for": header } : {} });
  return response.text();
}

afterEach(() => {
  delete process.env.TRUST_PROXY;
  resetConfig();
});

describe("the front server names the client's address for Next.js", () => {
  it("replaces whatever the client says with the connection's address", async () => {
    const front = await frontServer();
    try {
      expect(await forwardedFor(front.url, "198.51.100.1")).toBe("127.0.0.1");
      expect(await forwardedFor(front.url, "198.51.100.1, 198.51.100.2")).toBe("127.0.0.1");
      expect(await forwardedFor(front.url)).toBe("127.0.0.1");
    } finally {
      await front.close();
    }
  });

  it("with TRUST_PROXY=1, keeps the proxy's header (its last entry is the client), or the connection's address without one", async () => {
    process.env.TRUST_PROXY = "1";
    resetConfig();
    const front = await frontServer();
    try {
      expect(await forwardedFor(front.url, "10.9.9.9, 198.51.100.7")).toBe("10.9.9.9, 198.51.100.7");
      expect(await forwardedFor(front.url)).toBe("127.0.0.1");
    } finally {
      await front.close();
    }
  });
});
