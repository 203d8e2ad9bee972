import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, inject } from "vitest";
import { resetSigningKey } from "../features/auth/tokens";
import { resetConfig } from "../server/config";
import { closeDb } from "../server/db/client";
import { resetRootSecrets } from "../server/secrets";

/** Each test file gets its own database, copied from the migrated template, dropped afterwards. */
const templateUrl = new URL(inject("pgTemplateUrl"));
const template = templateUrl.pathname.slice(1);
const name = `t_${randomBytes(8).toString("hex")}`;
const adminUrl = new URL(templateUrl);
adminUrl.pathname = "/postgres";
const admin = postgres(adminUrl.toString(), { max: 1, onnotice: () => {} });
// FILE_COPY copies the template's files (a checkpoint, cheap with the test server's fsync off) rather
// than writing every block of it to the WAL (the default since PostgreSQL 15): 40 ms rather than 60–300.
await admin.unsafe(`create database "${name}" template "${template}" strategy file_copy`);

const dbUrl = new URL(templateUrl);
dbUrl.pathname = `/${name}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pis-test-data-"));
Object.assign(process.env, {
  DATABASE_URL: dbUrl.toString(),
  DATA_DIR: dataDir,
  MASTER_KEY: randomBytes(32).toString("base64"),
  AUTH_SECRET: randomBytes(32).toString("base64url"),
  LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? "silent",
  PUBLIC_BASE_URL: "http://localhost:3999",
  APP_ENV: "staging",
  WEBHOOK_ALLOW_PRIVATE_DESTINATIONS: "1",
  // The request limits count (their headers are on every answer) but never refuse a test's requests;
  // rate-limit.int.test.ts sets the defaults back to test them.
  API_RATE_LIMIT_PER_SECOND: "1000000",
  TOKEN_RATE_LIMIT_PER_SECOND: "1000000",
  TOKEN_RATE_LIMIT_PER_ADDRESS_PER_SECOND: "1000000",
  // The Partner API's fair queue takes and frees a slot for every request, but never holds or refuses
  // a test's: with the default 4 slots a request of one client waits while another client was active
  // in the last second, and a test holding one request in flight on purpose (an Idempotency-Key's
  // 409) would wait for itself. fair-queue.int.test.ts sets the limits to test them; the end-to-end
  // server runs the defaults.
  API_MAX_CONCURRENT: "1000",
  API_MAX_QUEUED_PER_CLIENT: "100000",
  API_MAX_QUEUE_WAIT_SECONDS: "600",
});
resetConfig();
resetRootSecrets();
resetSigningKey();

afterAll(async () => {
  await closeDb();
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.end({ timeout: 5 });
  fs.rmSync(dataDir, { recursive: true, force: true });
});
