import { getConfig } from "../src/server/config";
import { onStop } from "../src/server/lifecycle";
import { logger } from "../src/server/log";
import { refuseUnsafeStart } from "../src/server/start-check";

/**
 * The web process (`npm start` spawns it once the build is current; `npm run dev` runs it with
 * `--dev`; the image runs it): migrations and the inline worker first (src/server/boot.ts), then
 * the door (src/server/http/front-server.ts) with its mount table (src/composition/gateways.ts):
 * /healthz, /readyz and /metrics, the gateways, their docs and the console's tRPC endpoint, and
 * everything else to Next.js (`next({dev})`: the built app, or with `--dev` its dev server,
 * compiled on demand). The router, the worker and the mounted handlers are one module instance,
 * imported here (docs/decisions.md "Structure: one door into the gateways"). On SIGTERM/SIGINT
 * (src/server/lifecycle.ts) readiness turns 503, the server stops accepting and lets requests in
 * flight finish, then the worker stops and the database closes.
 */
refuseUnsafeStart();
const dev = process.argv.includes("--dev");
// As `next start` does: the production build, whatever the caller's environment said.
(process.env as Record<string, string>).NODE_ENV = dev ? "development" : "production";

const { bootWebProcess } = await import("../src/server/boot");
const { FEATURE_TASKS, WORKER_SERVICES } = await import("../src/composition/tasks");
await bootWebProcess({ tasks: FEATURE_TASKS, services: WORKER_SERVICES });
const { webMounts } = await import("../src/composition/gateways");
const { createFrontServer, drainServer } = await import("../src/server/http/front-server");
const { default: next } = await import("next");

const { port } = getConfig();
const app = next({ dev, dir: process.cwd(), port, ...(dev ? { turbopack: true } : {}) });
await app.prepare();
const server = createFrontServer({ mounts: webMounts, next: app.getRequestHandler() });
// Every interface, as `next start` listens.
server.listen(port, () => {
  logger().info({ port, dev, mounts: webMounts.map((mount) => mount.path) }, "web process listening");
});
onStop("servers", () => drainServer(server, getConfig().shutdownTimeoutSeconds * 1000));
