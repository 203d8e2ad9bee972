import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { and, desc, eq, gt, sql } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { auditLog } from "../features/audit/audit-log.table";
import { apiClients } from "../features/auth/clients.table";
import { getDb } from "../server/db/client";
import { newClient, newOwner, unique } from "../test/factories";
import { call } from "../test/http";
import { admin, adminRaw } from "./admin-test-helpers";
import { cliUser } from "./usage";

afterEach(() => vi.restoreAllMocks());

const clientCount = async () => (await (await getDb()).select({ n: sql<number>`count(*)::int` }).from(apiClients))[0].n;

async function lastAuditId(): Promise<number> {
  const [row] = await (await getDb()).select({ id: auditLog.id }).from(auditLog).orderBy(desc(auditLog.id)).limit(1);
  return row?.id ?? 0;
}

describe("the CLI says what is wrong (decisions §15: an unknown flag is a usage error that names it)", () => {
  it("a flag the command does not take exits 2 naming it, writes nothing on stdout and does nothing", async () => {
    const clients = await clientCount();
    const audited = await lastAuditId();
    const cases: Array<[string[], string]> = [
      [["client", "create", "--name", "Typo", "--bogus"], "--bogus"],
      [["client", "create", "--name", "Typo", "--scope=prospects:read"], "--scope"],
      // A flag of another command is not this command's.
      [["client", "create", "--name", "Typo", "--owner", "acme"], "--owner"],
      [["client", "create", "--name", "Typo", "-n"], "-n"],
    ];
    for (const [argv, flag] of cases) {
      const run = await adminRaw(...argv);
      expect(run, argv.join(" ")).toMatchObject({ code: 2, stdout: "" });
      expect(run.err).toContain(`Unknown flag ${flag}\n`);
      expect(run.err).toContain("Usage: admin client create --name N");
      expect(run.err).not.toContain("Internal error");
    }
    expect(await clientCount()).toBe(clients);
    expect(await lastAuditId()).toBe(audited);
  });

  it("as a real process through npm's entry point: exit code 2, the flag named on stderr, stdout empty", async () => {
    const spawned = await promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/admin.ts", "owner", "list", "--verbose"], {
      env: process.env,
    }).then(
      () => ({ code: 0, stdout: "", stderr: "" }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(spawned).toMatchObject({ code: 2, stdout: "" });
    expect(spawned.stderr).toMatch(/^Unknown flag --verbose\nUsage: admin owner list/);
  }, 60_000);

  it("a missing required flag, a flag without its value and a stray argument are usage errors too", async () => {
    const clients = await clientCount();
    const cases: Array<[string[], string]> = [
      [["client", "create"], "--name is required"],
      [["client", "create", "--name", ""], "--name is required"],
      [["client", "grant", "--client-id", "pc_x"], "--owner is required"],
      [["client", "create", "--name"], "--name"],
      [["owner", "list", "extra"], 'Unexpected argument "extra"'],
      [["user", "create", "--email", "a@example.com", "--password", "long enough pw", "--role", "admin"], "--role must be operator or account_manager"],
    ];
    for (const [argv, message] of cases) {
      const run = await adminRaw(...argv);
      expect(run, argv.join(" ")).toMatchObject({ code: 2, stdout: "" });
      expect(run.err).toContain(message);
      expect(run.err).toContain(`Usage: admin ${argv[0]} ${argv[1]}`);
    }
    expect(await clientCount()).toBe(clients);
  });
});

describe("the CLI leaves a trail (decisions §12: every change audited; `cli:<user>`)", () => {
  it("every mutating command writes the console's audit row for its change, with no secret in it", async () => {
    const actor = `cli:${cliUser()}`;
    const secrets: string[] = [];
    const trail: Array<{ command: string; action: string; subject: string }> = [];
    /** Runs one command and returns its output, noting the audit rows it wrote. */
    const run = async (...argv: string[]) => {
      const since = await lastAuditId();
      const result = await admin(...argv);
      expect(result.code, `${argv.join(" ")}: ${result.err}`).toBe(0);
      const rows = await (await getDb()).select().from(auditLog).where(gt(auditLog.id, since)).orderBy(auditLog.id);
      for (const row of rows) {
        expect(row).toMatchObject({ actorLabel: actor, actorUserId: null });
        trail.push({ command: `${argv[0]} ${argv[1]}`, action: row.action, subject: `${row.subjectType}:${row.subjectId}` });
      }
      return result.out;
    };

    const client = await run("client", "create", "--name", "Audited partner");
    secrets.push(String(client.client_secret));
    const clientId = String(client.client_id);
    const owner = await run("owner", "create-managed", "--name", "Audited Living", "--external-org-id", unique("audited"));
    const slug = String(owner.owner_slug);
    await run("client", "grant", "--client-id", clientId, "--owner", slug);
    await run("owner", "grant-building", "--owner", slug, "--client-id", clientId, "--pms-type", "pms_one", "--pms-property-id", "P-7");
    secrets.push(String((await run("owner", "secret", "--owner", slug)).signing_secret));
    secrets.push(String((await run("owner", "rotate-secret", "--owner", slug)).signing_secret));
    const code = unique("aud").replace("-", "_");
    await run("source", "create", "--code", code, "--client-id", clientId, "--redirect-domain", "apply.example.com");
    const providerCode = unique("aud-prov");
    await run("provider", "create", "--code", providerCode, "--client-id", clientId, "--owners", slug);
    const origin = `https://${unique("portal")}.example.com`;
    await run("frame-origin", "add", "--origin", origin);
    const email = `${unique("ops")}@example.com`;
    const password = `${unique("pw")} horse battery`;
    secrets.push(password);
    const user = await run("user", "create", "--email", email, "--password", password, "--role", "account_manager");
    const endpointId = await endpointOfAPartner();
    const headerValue = unique("partner-credential");
    secrets.push(headerValue);
    await run("endpoint", "headers", "--endpoint-id", endpointId, "--set", `X-Partner-Key: ${headerValue}`);
    // Reads write nothing: the headers printed again, the owners listed.
    expect((await run("endpoint", "headers", "--endpoint-id", endpointId)).static_headers).toEqual({ "X-Partner-Key": headerValue });
    await run("owner", "list");

    expect(trail).toEqual([
      { command: "client create", action: "clients.create", subject: `client:${clientId}` },
      { command: "owner create-managed", action: "owner.created", subject: `owner:${slug}` },
      { command: "client grant", action: "clients.grant_owner", subject: `client:${clientId}` },
      { command: "owner grant-building", action: "building_grants.add", subject: expect.stringMatching(/^building_grant:\d+$/) },
      { command: "owner secret", action: "owner.signing_secret_revealed", subject: `owner:${slug}` },
      { command: "owner rotate-secret", action: "owner.signing_secret_rotated", subject: `owner:${slug}` },
      { command: "source create", action: "source.created", subject: `source:${code}` },
      { command: "provider create", action: "providers.create", subject: `provider:${providerCode}` },
      { command: "frame-origin add", action: "frame_origin.added", subject: expect.stringMatching(/^frame_origin:\d+$/) },
      { command: "user create", action: "user.created", subject: `user:${user.user_id}` },
      { command: "endpoint headers", action: "endpoints.headers", subject: `webhook_endpoint:${endpointId}` },
    ]);

    // The rows say what changed, as the console's do, and never hold a secret.
    const rows = await (await getDb()).select().from(auditLog).where(eq(auditLog.actorLabel, actor));
    const byAction = (action: string) => rows.find((row) => row.action === action);
    expect(byAction("clients.create")?.after).toMatchObject({ name: "Audited partner", gateway: "partner" });
    expect(byAction("source.created")?.after).toMatchObject({ code, client_id: clientId, redirect_domains: ["apply.example.com"] });
    expect(byAction("user.created")?.after).toEqual({ email, role: "account_manager", disabled: false });
    expect(byAction("endpoints.headers")?.after).toMatchObject({ set: ["X-Partner-Key"] });
    const text = JSON.stringify(rows);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it("frame-origin add of an origin already listed answers it again and records nothing", async () => {
    const origin = `https://${unique("again")}.example.com`;
    expect((await admin("frame-origin", "add", "--origin", origin)).out).toEqual({ origin });
    const since = await lastAuditId();
    expect(await admin("frame-origin", "add", "--origin", origin)).toMatchObject({ code: 0, out: { origin } });
    expect(
      await (await getDb())
        .select()
        .from(auditLog)
        .where(and(gt(auditLog.id, since), eq(auditLog.action, "frame_origin.added"))),
    ).toEqual([]);
  });
});

/** A webhook endpoint a partner registered through the Partner API (operator headers are set on it). */
async function endpointOfAPartner(): Promise<string> {
  const client = await newClient();
  const owner = await newOwner(client);
  const answer = await call<{ endpoint: { id: string } }>("POST", `/api/partners/${owner.slug}/webhooks/endpoints`, {
    token: await client.token(),
    body: { endpoint: { name: "audited hook", destination_url: "https://localhost:9/hook", events: ["prospect.created"] } },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.endpoint.id;
}
