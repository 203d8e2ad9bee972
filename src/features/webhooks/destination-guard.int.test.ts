import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { call } from "../../test/http";
import { runDueJobs } from "../../test/jobs";
import { WEBHOOK_MESSAGES } from "./messages";
import { webhookPartner } from "./webhook-test-helpers";

afterEach(() => {
  process.env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS = "1";
  resetConfig();
});

type Detail = { delivery: { attempts: Array<{ failure_reason: string | null }>; last_attempt_failure_reason?: string | null } };

describe("the destination guard's failure reason (docs/decisions.md, Second security review)", () => {
  it("says the destination resolves to a blocked address, never which address", async () => {
    const partner = await webhookPartner();
    // Registered while private destinations are allowed (the tests' setting), then the guard is on:
    // a name that resolves to loopback, as an internal name would resolve to a private address.
    const endpoint = await partner.register("https://internal-admin.localhost:9/hook", ["policy.created"]);
    process.env.WEBHOOK_ALLOW_PRIVATE_DESTINATIONS = "";
    resetConfig();
    const sent = await call<{ delivery_id: string }>("POST", `${partner.base}/${endpoint}/test`, { token: partner.token, body: { event: "policy.created" } });
    expect(sent.status).toBe(202);
    await runDueJobs();
    const detail = await call<Detail>("GET", `${partner.base}/${endpoint}/deliveries/${sent.body.delivery_id}`, { token: partner.token });
    const [attempt] = detail.body.delivery.attempts;
    expect(attempt.failure_reason).toContain(WEBHOOK_MESSAGES.blockedDestination);
    expect(detail.text).not.toContain("127.0.0.1");
    expect(detail.text).not.toContain("::1");
  });
});
