import { afterEach, describe, expect, it } from "vitest";
import { resetConfig } from "../../server/config";
import { getDb } from "../../server/db/client";
import { newClient, unique } from "../../test/factories";
import { createSource } from "./sources";

const code = () => unique("src").replace("-", "_");

describe("source create --redirect-domain (decisions §4, §10)", () => {
  afterEach(() => {
    process.env.APP_ENV = "staging";
    resetConfig();
  });

  it("accepts localhost in staging, for local demos and tests", async () => {
    const client = await newClient();
    const created = await createSource(await getDb(), { code: code(), clientId: client.clientId, redirectDomains: ["LocalHost", "apply.example.com"] });
    expect(created.source.redirect_domains).toEqual(["localhost", "apply.example.com"]);
  });

  it("refuses localhost in production, and anything that is not a domain name anywhere", async () => {
    const client = await newClient();
    await expect(
      createSource(await getDb(), { code: code(), clientId: client.clientId, redirectDomains: ["https://apply.example.com"] }),
    ).rejects.toMatchObject({
      kind: "invalid",
    });
    process.env.APP_ENV = "production";
    resetConfig();
    await expect(createSource(await getDb(), { code: code(), clientId: client.clientId, redirectDomains: ["localhost"] })).rejects.toMatchObject({
      kind: "invalid",
      message: "Not a domain name: localhost",
    });
  });
});
