import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { connectOrStartEmbedded } from "../server/db/embedded";
import { migrateDatabase } from "../server/db/migrate";
import { createTestCertificates } from "./tls";

declare module "vitest" {
  export interface ProvidedContext {
    pgTemplateUrl: string;
  }
}

/**
 * One embedded PostgreSQL for the whole run, in a throwaway directory. Its `pis` database is built
 * from the committed migrations and used as the template each test file copies (setup-db.ts).
 */
export default async function setup(project: TestProject) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pis-test-"));
  fs.chmodSync(dir, 0o755);
  // A throwaway CA for the HTTPS webhook receivers of the tests. Node reads NODE_EXTRA_CA_CERTS at
  // start, and the test workers are started after this, with this environment.
  const tls = createTestCertificates(path.join(dir, "tls"));
  process.env.NODE_EXTRA_CA_CERTS = tls.ca;
  process.env.TEST_TLS_KEY = tls.key;
  process.env.TEST_TLS_CERT = tls.cert;
  const handle = await connectOrStartEmbedded(dir, { fastUnsafe: true });
  await migrateDatabase(handle.url);
  project.provide("pgTemplateUrl", handle.url);
  return async () => {
    await handle.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
