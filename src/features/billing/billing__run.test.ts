import { parseCrontab } from "graphile-worker";
import { describe, expect, it } from "vitest";
import { crontabOf } from "../../server/jobs/define-task";
import { billingRun } from "./billing__run";

describe("the billing cron (decisions §11 Billing)", () => {
  it("is a daily crontab line graphile-worker accepts, making up a missed day", () => {
    const line = crontabOf([billingRun]);
    expect(line).toBe("0 6 * * * billing__run ?fill=1d");
    const [item] = parseCrontab(line);
    expect(item).toMatchObject({ task: "billing__run", match: expect.any(Function), options: { backfillPeriod: 86_400_000 } });
  });
});
