import path from "node:path";
import { getConfig } from "../src/server/config";
import { createFrontServer, fastPathRulesOf } from "../src/server/http/front-server";

/**
 * The web process (`npm start` spawns it once the build is current): the built Next.js app behind
 * the front server (src/server/http/front-server.ts), which hands gateway requests straight to
 * their route's handler. Next.js's start hook (src/instrumentation.ts) still migrates and starts
 * the inline worker, and stops it on SIGINT/SIGTERM.
 */
// As `next start` does: the production build, whatever the caller's environment said.
(process.env as Record<string, string>).NODE_ENV = "production";
const { default: next } = await import("next");

const { port } = getConfig();
const app = next({ dev: false, dir: process.cwd(), port });
await app.prepare();
const server = createFrontServer(app.getRequestHandler(), fastPathRulesOf(path.join(process.cwd(), ".next")));
// Every interface, as `next start` listens.
server.listen(port);
