import type { AddressInfo } from "node:net";
import { webMounts } from "../composition/gateways";
import { createFrontServer } from "../server/http/front-server";

/**
 * A second web process for the tests that need two (the request limits counted across processes):
 * the door with its mount table, as `scripts/serve.ts` serves it, without Next.js, on a port of its
 * own, printing `listening <port>`; it reads the same environment (database, master key) as the test.
 */
const server = createFrontServer({
  mounts: webMounts,
  next: async (_req, res) => {
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ status_code: 404, error: "Not found" }));
  },
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
