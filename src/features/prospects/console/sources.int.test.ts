import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { staff } from "@/test/console";
import { resetConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { appErrorOf, fieldMessagesOf } from "../../../server/errors";
import { newClient, unique } from "../../../test/factories";
import { auditLog } from "../../audit/audit-log.table";
import { sources } from "../sources.table";

const newCode = () => unique("src").replace("-", "_");

async function auditOf(code: string) {
  return (await getDb())
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.subjectType, "source"), eq(auditLog.subjectId, code)))
    .orderBy(auditLog.id);
}

async function stored(code: string) {
  const [row] = await (await getDb()).select().from(sources).where(eq(sources.code, code));
  return row;
}

const fieldsOf = (error: unknown) => {
  const known = appErrorOf(error);
  return known && fieldMessagesOf(known);
};

describe("console sources (decisions §4 source create, §12 Access)", () => {
  afterEach(() => {
    process.env.APP_ENV = "staging";
    resetConfig();
  });

  it("creates, lists with the client's name, and edits flow, optional ingest fields and redirect domains, each audited", async () => {
    const client = await newClient();
    const code = newCode();
    const am = await staff("account_manager");
    const created = await am.sources.create({ code, client_id: client.clientId, redirect_domains: ["Apply.Example.com", " ", "apply.example.com"] });
    expect(created).toEqual({
      code,
      client_id: client.clientId,
      client_name: expect.stringMatching(/^client-/),
      flow: "embedded",
      optional_ingest_fields: false,
      redirect_domains: ["apply.example.com"],
      created_at: expect.any(String),
    });
    expect((await am.sources.list()).find((row) => row.code === code)).toEqual(created);

    const updated = await am.sources.update({
      code,
      flow: "expedited",
      optional_ingest_fields: true,
      redirect_domains: ["apply.example.com", "*.example.org", "localhost"],
    });
    expect(updated).toMatchObject({ flow: "expedited", optional_ingest_fields: true, redirect_domains: ["apply.example.com", "*.example.org", "localhost"] });
    // Only the given fields change.
    expect(await am.sources.update({ code, redirect_domains: [] })).toMatchObject({ flow: "expedited", optional_ingest_fields: true, redirect_domains: [] });

    const rows = await auditOf(code);
    expect(rows.map((row) => row.action)).toEqual(["source.created", "source.updated", "source.updated"]);
    expect(rows[0]).toMatchObject({ actorLabel: "account_manager@example.com", before: null, after: { code, redirect_domains: ["apply.example.com"] } });
    expect(rows[1]).toMatchObject({
      before: { flow: "embedded", optional_ingest_fields: false, redirect_domains: ["apply.example.com"] },
      after: { flow: "expedited", optional_ingest_fields: true, redirect_domains: ["apply.example.com", "*.example.org", "localhost"] },
    });
    // An edit that changes nothing writes no row.
    await am.sources.update({ code, flow: "expedited" });
    expect(await auditOf(code)).toHaveLength(3);
  });

  it("refuses what the CLI refuses, naming the field, and changes nothing", async () => {
    const client = await newClient();
    const code = newCode();
    const am = await staff("account_manager");
    const badDomain = await am.sources.create({ code, client_id: client.clientId, redirect_domains: ["https://apply.example.com"] }).catch((e) => e);
    expect(badDomain).toMatchObject({ code: "UNPROCESSABLE_CONTENT" });
    expect(fieldsOf(badDomain)).toEqual({ redirect_domain: ["Not a domain name: https://apply.example.com"] });
    expect(fieldsOf(await am.sources.create({ code: "Bad Code", client_id: client.clientId }).catch((e) => e))).toHaveProperty("code");
    await expect(am.sources.create({ code, client_id: unique("no-such-client") })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await stored(code)).toBeUndefined();

    await am.sources.create({ code, client_id: client.clientId, redirect_domains: ["apply.example.com"] });
    const duplicate = await am.sources.create({ code, client_id: client.clientId }).catch((e) => e);
    expect(duplicate).toMatchObject({ code: "CONFLICT", message: `Source ${code} already exists` });
    expect(fieldsOf(await am.sources.update({ code, redirect_domains: ["ok.example.com", "not a domain"] }).catch((e) => e))).toEqual({
      redirect_domain: ["Not a domain name: not a domain"],
    });
    await expect(am.sources.update({ code, flow: "sideways" as "embedded" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(am.sources.update({ code: newCode(), flow: "expedited" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await stored(code)).redirectDomains).toEqual(["apply.example.com"]);
    expect((await stored(code)).flow).toBe("embedded");

    // Production: only public domain names (decisions §10), as the CLI.
    process.env.APP_ENV = "production";
    resetConfig();
    expect(fieldsOf(await am.sources.update({ code, redirect_domains: ["localhost"] }).catch((e) => e))).toEqual({
      redirect_domain: ["Not a domain name: localhost"],
    });
    expect((await stored(code)).redirectDomains).toEqual(["apply.example.com"]);
    expect(await auditOf(code)).toHaveLength(1);
  });

  it("is for signed-in staff only", async () => {
    const client = await newClient();
    const anonymous = await staff(null);
    await expect(anonymous.sources.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.sources.create({ code: newCode(), client_id: client.clientId })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect(anonymous.sources.update({ code: newCode(), flow: "expedited" })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await (await staff("operator")).sources.list()).toEqual(expect.any(Array));
  });
});
