import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, ensureBuilt, getJson, startProcess, until } from "../../test/processes";
import { databaseUrl } from "../db/client";

/**
 * A server action's `redirect()` is answered by Next.js fetching the target itself, from an origin it
 * works out (docs/decisions.md, "Second security review"). The attack tried: a portal action posted
 * with no Origin, no cookie (the action redirects without a session) and `X-Forwarded-Host` (and
 * `-Proto`) naming a local listener, against the real web process (`scripts/serve.ts`, the build).
 * The listener must never be asked anything.
 */
const PORT = 5045;
const requests: string[] = [];
const listener = http.createServer((req, res) => {
  requests.push(`${req.method} ${req.headers.host}${req.url}`);
  res.writeHead(200, { "content-type": "text/x-component" });
  res.end("0:null\n");
});
afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

/** The id of a portal action, as any portal page's form carries it (here read from the build's manifest). */
function portalActionId(name: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string; workers: Record<string, unknown> }>;
  };
  const found = Object.entries(manifest.node).find(([, action]) => action.exportedName === name && "app/portal/endpoints/[id]/page" in action.workers);
  if (!found) throw new Error(`no action ${name} in the build`);
  return found[0];
}

describe("server actions and X-Forwarded-Host (docs/decisions.md, Second security review)", () => {
  beforeAll(ensureBuilt, BUILD_TIMEOUT_MS);

  it("never fetches a portal action's redirect from the host a request names", async () => {
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const target = `127.0.0.1:${(listener.address() as AddressInfo).port}`;
    const web = startProcess(["scripts/serve.ts"], {
      ...process.env,
      DATABASE_URL: await databaseUrl(),
      PORT: String(PORT),
      WORKER: "off",
      LOG_LEVEL: "info",
      NEXT_TELEMETRY_DISABLED: "1",
    });
    await until(
      async () => (await getJson(`http://127.0.0.1:${PORT}/healthz`))?.status === 200,
      90_000,
      () => web.output(),
    );
    const action = portalActionId("setEndpointPausedAction");
    const answers: { status: number; redirect: string | null }[] = [];
    for (const proto of [undefined, "http", "https"]) {
      // As React's client encodes a FormData argument: the argument list, then the form's fields.
      const body = new FormData();
      body.set("0", '["$K1"]');
      body.set("1_endpoint_id", "we_attack");
      body.set("1_paused", "true");
      const response = await fetch(`http://127.0.0.1:${PORT}/portal/endpoints/we_attack`, {
        method: "POST",
        headers: { "Next-Action": action, "X-Forwarded-Host": target, ...(proto ? { "X-Forwarded-Proto": proto } : {}) },
        body,
        redirect: "manual",
      });
      await response.arrayBuffer();
      answers.push({ status: response.status, redirect: response.headers.get("x-action-redirect") });
    }
    // The action ran and redirected (no session), so Next.js took the path that fetches the target
    // (from its own origin, `http://localhost:<PORT>`, or not at all when `-Proto` says https).
    expect(
      answers.filter((answer) => answer.redirect?.startsWith("/portal?notice=ended;")),
      JSON.stringify(answers),
    ).not.toEqual([]);
    expect(requests).toEqual([]);
    web.child.kill("SIGTERM");
    expect(await web.exited).toEqual({ code: 0, signal: null });
  }, 180_000);
});
