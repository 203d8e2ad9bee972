import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newClient, unique } from "../../test/factories";
import { call } from "../../test/http";
import { resetConfig } from "../config";
import { readiness } from "../health";
import { closeDb, getSql } from "./client";

/**
 * DB_PREPARE=0 (docs/operations.md, "PgBouncer"): behind a transaction-mode pooler a statement
 * prepared on one server connection is missing on the next, so with the setting no statement of
 * the process may stay prepared. With one connection in the pool, every request below runs on the
 * session the check then reads `pg_prepared_statements` of (the check itself is not prepared).
 */
async function preparedStatements(): Promise<string[]> {
  const sql = await getSql();
  const rows = await sql.unsafe<{ statement: string }[]>("select statement from pg_prepared_statements", [], { prepare: false });
  return rows.map((row) => row.statement);
}

describe("DB_PREPARE=0", () => {
  beforeAll(async () => {
    await closeDb();
    process.env.DB_PREPARE = "0";
    process.env.DB_POOL_SIZE = "1";
    resetConfig();
  });
  afterAll(async () => {
    await closeDb();
    delete process.env.DB_PREPARE;
    delete process.env.DB_POOL_SIZE;
    resetConfig();
  });

  it("keeps no statement prepared on the connection through a token exchange, an owner's creation and update, and a readiness check", async () => {
    const client = await newClient();
    const token = await client.token();
    const body = { external_org_id: unique("org"), name: "Prepared Nothing LLC" };
    expect((await call("POST", "/api/partners/property_owners", { token, body })).status).toBe(201);
    expect((await call("POST", "/api/partners/property_owners", { token, body: { ...body, name: "Prepared Nothing Inc" } })).status).toBe(200);
    expect((await readiness()).checks.database).toBe("ok");
    expect(await preparedStatements()).toEqual([]);
  });
});
