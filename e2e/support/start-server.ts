import path from "node:path";
import { createTestCertificates } from "../../src/test/tls";

/**
 * The e2e web server: `scripts/start.ts` with a throwaway CA for the HTTPS webhook receivers the
 * tests start. Node reads NODE_EXTRA_CA_CERTS when a process starts, so the certificates are made
 * here, before the web process (and its inline delivery worker) is spawned by start.ts with this
 * environment. Playwright starts its webServer before any globalSetup, hence a wrapper, not a setup.
 * The tests read the server key and certificate from the same place (e2e/enrollment-helpers.ts).
 */
const dataDir = process.env.DATA_DIR ?? ".data/e2e";
const tls = createTestCertificates(path.join(dataDir, "tls"));
process.env.NODE_EXTRA_CA_CERTS = path.resolve(tls.ca);

await import("../../scripts/start");
