import path from "node:path";
import { getConfig } from "../src/server/config";
import { createFrontServer, drainServer, type FastPathRules, fastPathRulesOf } from "../src/server/http/front-server";
import { onStop } from "../src/server/lifecycle";
import { logger } from "../src/server/log";
import { refuseUnsafeStart } from "../src/server/start-check";

/**
 * The web process (`npm start` spawns it once the build is current): the built Next.js app behind
 * the front server (src/server/http/front-server.ts), which hands gateway requests straight to
 * their route's handler, answers /healthz and /readyz itself and bounds every other request's
 * body. Next.js's start hook (src/instrumentation.ts) migrates and starts the inline worker. On
 * SIGTERM/SIGINT (src/server/lifecycle.ts) readiness turns 503, the server stops accepting and
 * lets requests in flight finish, then the worker stops and the database closes. `--dev` (`npm run dev`): Next.js's dev server behind the same front server, with
 * no fast path (every request through Next.js, compiled on demand), so bodies are bounded there too.
 */
refuseUnsafeStart();
const dev = process.argv.includes("--dev");
// As `next start` does: the production build, whatever the caller's environment said.
(process.env as Record<string, string>).NODE_ENV = dev ? "development" : "production";
const { default: next } = await import("next");

const { port } = getConfig();
const app = next({ dev, dir: process.cwd(), port, ...(dev ? { turbopack: true } : {}) });
await app.prepare();
const rules: FastPathRules = dev ? { gateways: new Map(), proxyMatchers: [] } : fastPathRulesOf(path.join(process.cwd(), ".next"));
const server = createFrontServer(app.getRequestHandler(), rules);
// Every interface, as `next start` listens.
server.listen(port, () => {
  // Off (everything through Next.js) only when the build could route a gateway path elsewhere.
  logger().info({ port, dev, gatewayFastPath: [...rules.gateways.keys()] }, "web process listening");
});
onStop("servers", () => drainServer(server, getConfig().shutdownTimeoutSeconds * 1000));
