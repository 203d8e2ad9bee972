import { describe, expect, it } from "vitest";
import { knownDriverFailure } from "./driver-guard";

/** docs/decisions.md "Operations: recovery from faults": the failures the guard lets pass, and only those. */
function failure(error: Error, stack: string, code?: string): Error {
  error.stack = `${error.name}: ${error.message}\n${stack}`;
  if (code) Object.assign(error, { code });
  return error;
}

describe("knownDriverFailure", () => {
  it("knows pg's connection loss with no listener left, graphile-worker's released batcher and postgres.js's write on a closed socket", () => {
    const pgLoss = failure(
      new Error("terminating connection due to administrator command"),
      "    at parseErrorMessage (/app/node_modules/pg-protocol/dist/parser.js:287:98)",
      "57P01",
    );
    expect(knownDriverFailure(pgLoss)).toBe("pg connection lost");
    const reset = failure(new Error("Connection terminated unexpectedly"), "    at Connection.<anonymous> (/app/node_modules/pg/lib/client.js:132:73)");
    expect(knownDriverFailure(reset)).toBe("pg connection lost");
    const batcher = failure(
      new Error("This batcher has been released, and so no more calls can be made."),
      "    at handleSpec (/app/node_modules/graphile-worker/dist/main.js:1040:19)",
    );
    expect(knownDriverFailure(batcher)).toBe("graphile-worker released batcher");
    const write = failure(
      new TypeError("Cannot read properties of null (reading 'write')"),
      "    at Immediate.nextWrite (file:///app/node_modules/postgres/src/connection.js:255:22)",
    );
    expect(knownDriverFailure(write)).toBe("postgres.js write on a closed socket");
    // An unawaited connect refused while the server is down: Node's frames only.
    const refused = Object.assign(
      failure(new Error("connect ECONNREFUSED 127.0.0.1:5432"), "    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1611:16)", "ECONNREFUSED"),
      {
        syscall: "connect",
      },
    );
    expect(knownDriverFailure(refused, "rejection")).toBe("connection refused");
    expect(knownDriverFailure(refused, "exception")).toBeUndefined();
  });

  it("lets everything else end the process: our own errors, the same messages from elsewhere, non-errors", () => {
    expect(
      knownDriverFailure(failure(new TypeError("Cannot read properties of null (reading 'write')"), "    at run (/app/src/server/x.ts:1:1)")),
    ).toBeUndefined();
    expect(knownDriverFailure(failure(new Error("terminating connection"), "    at run (/app/src/server/x.ts:1:1)", "57P01"))).toBeUndefined();
    expect(
      knownDriverFailure(failure(new Error("syntax error"), "    at parseErrorMessage (/app/node_modules/pg-protocol/dist/parser.js:1:1)", "42601")),
    ).toBeUndefined();
    expect(knownDriverFailure(failure(new Error("This batcher has been released"), "    at mine (/app/src/x.ts:1:1)"))).toBeUndefined();
    expect(knownDriverFailure("ECONNRESET")).toBeUndefined();
    expect(knownDriverFailure(undefined)).toBeUndefined();
  });
});
