import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../../server/config";
import { getDb } from "../../../server/db/client";
import { serveMetrics } from "../../../server/observability/metrics";
import { staff } from "../../../test/console";
import { runDueJobs } from "../../../test/jobs";
import { startSmtpServer, type TestSmtpServer } from "../../../test/smtp-server";
import { auditLog } from "../../audit/audit-log.table";
import { queueRenterMessage } from "../queue";

let smtp: TestSmtpServer;
let metrics: http.Server;

beforeAll(async () => {
  smtp = await startSmtpServer();
  metrics = http.createServer((req, res) => {
    if (!serveMetrics(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => metrics.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  for (const name of ["SMTP_URL", "METRICS_TOKEN"]) delete process.env[name];
  resetConfig();
  await smtp.close();
  await new Promise((resolve) => metrics.close(resolve));
});
beforeEach(() => {
  Object.assign(process.env, { SMTP_URL: smtp.url, MAIL_FROM: "Renters <no-reply@pis.test>", METRICS_TOKEN: "metrics-token" });
  resetConfig();
});

/** `pis_renter_messages_total{kind,outcome}` as this process counts it. */
async function counted(kind: string, outcome: string): Promise<number> {
  const answer = await fetch(`http://127.0.0.1:${(metrics.address() as AddressInfo).port}/metrics`, { headers: { Authorization: "Bearer metrics-token" } });
  const line = (await answer.text()).split("\n").find((l) => l.startsWith(`pis_renter_messages_total{kind="${kind}",outcome="${outcome}"}`));
  return line ? Number(line.split(" ").at(-1)) : 0;
}

async function queueSignIn(to: string): Promise<number> {
  const id = await (await getDb()).transaction((tx) =>
    queueRenterMessage(tx, { kind: "account_sign_in", to, link: "http://localhost:3999/account/sign-in/xyz", expiresAt: new Date().toISOString() }),
  );
  return id as number;
}

describe("the console's Messages screen (decisions §19, operators)", () => {
  it("finds messages by email, kind and status, shows one as the renter sees it, and counts outcomes in /metrics", async () => {
    const sentBefore = await counted("account_sign_in", "sent");
    const id = await queueSignIn("Search.Me@Example.com");
    await runDueJobs();
    const reader = await staff("account_manager");
    const [row] = await reader.messages.search({ email: "search.me@" });
    expect(row).toMatchObject({
      id,
      to: "Search.Me@Example.com",
      kind: "account_sign_in",
      status: "sent",
      subject: "Your sign-in link",
      last_answer_code: 250,
    });
    expect(await reader.messages.search({ email: "search.me@", kind: "payment_receipt" })).toEqual([]);
    expect((await reader.messages.search({ email: "search.me@", status: "sent" })).map((r) => r.id)).toEqual([id]);
    // LIKE's wildcards are searched as text.
    expect(await reader.messages.search({ email: "%" })).toEqual([]);
    const detail = await reader.messages.detail({ id });
    expect(detail.html).toContain('href="http://localhost:3999/account/sign-in/xyz"');
    expect(detail.text).toContain("http://localhost:3999/account/sign-in/xyz");
    await expect(reader.messages.detail({ id: 2_000_000_000 })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await counted("account_sign_in", "sent")).toBe(sentBefore + 1);
  });

  it("shows a failure with the server's answer; an operator resends it (audited), an account manager may not", async () => {
    smtp.queue({ refuse: 550, text: "5.7.1 Relaying denied" });
    const failedBefore = await counted("account_sign_in", "failed");
    const id = await queueSignIn("refused.console@example.com");
    await runDueJobs();
    const operator = await staff("operator");
    const [failed] = await operator.messages.search({ email: "refused.console@example.com", status: "failed" });
    expect(failed).toMatchObject({ id, status: "failed", last_answer_code: 550 });
    expect(failed.last_answer).toContain("Relaying denied");
    expect(await counted("account_sign_in", "failed")).toBe(failedBefore + 1);

    await expect((await staff("account_manager")).messages.resend({ id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const copy = await operator.messages.resend({ id });
    await runDueJobs();
    expect(await operator.messages.detail({ id: copy.id })).toMatchObject({ status: "sent", resent_from_id: id, to: "refused.console@example.com" });
    expect((await operator.messages.detail({ id })).resends).toEqual([copy.id]);
    expect(smtp.received.filter((mail) => mail.envelopeTo.includes("refused.console@example.com"))).toHaveLength(1);
    const audit = await (await getDb())
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "messages.resend"), eq(auditLog.subjectId, String(id))));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorRole: "operator", subjectType: "renter_message", after: { resent_as: copy.id } });
  });

  it("refuses to resend a message that may still go out", async () => {
    const id = await queueSignIn("still.queued@example.com");
    await expect((await staff("operator")).messages.resend({ id })).rejects.toMatchObject({ code: "CONFLICT" });
  });
});
