import { logger } from "../log";

/**
 * Failures the database drivers raise outside any caller while PostgreSQL goes away or restarts
 * (docs/decisions.md "Operations: recovery from faults"), each reproduced by stopping a real
 * PostgreSQL under a working worker, none a defect of ours, and each fatal by Node's default:
 * - `pg` (graphile-worker's driver): a pooled client released by a stopped runner still receives the
 *   server's 57P01 or a reset; with no listener left, its `error` event is thrown.
 * - graphile-worker 0.17: a job of a runner already shut down settles into the released batcher of
 *   its completions, whose promise nobody awaits ("This batcher has been released").
 * - postgres.js 3.4.9 (porsager/postgres#1154): a write scheduled with `setImmediate` on a socket
 *   already closed throws "Cannot read properties of null (reading 'write')".
 * - a connection attempt refused or reset while the server is down, whose rejection a driver never
 *   awaits (`pg`'s connect, retried by graphile-worker): its stack holds only Node's own socket frames,
 *   so it is recognised as a rejection (never as a thrown exception) by its socket error code.
 * Returns what it is, or undefined for anything else.
 */
export function knownDriverFailure(error: unknown, as: "exception" | "rejection" = "exception"): string | undefined {
  if (!(error instanceof Error)) return undefined;
  const stack = error.stack ?? "";
  if (error.message.startsWith("This batcher has been released") && /graphile-worker/.test(stack)) return "graphile-worker released batcher";
  if (
    error instanceof TypeError &&
    /reading 'write'/.test(error.message) &&
    /postgres[\\/]src[\\/]connection\.js|postgres[\\/]cjs[\\/]src[\\/]connection\.js/.test(stack)
  )
    return "postgres.js write on a closed socket";
  const code = (error as { code?: unknown }).code;
  const fromPg = /node_modules[\\/](pg|pg-protocol|pg-pool)[\\/]/.test(stack);
  if (fromPg && (CONNECTION_LOSS.has(String(code)) || /^08/.test(String(code)) || /Connection terminated/.test(error.message))) return "pg connection lost";
  if (as === "rejection" && SOCKET_ERRORS.has(String(code)) && (error as { syscall?: unknown }).syscall === "connect") return "connection refused";
  return undefined;
}

/** PostgreSQL's shutdown codes and the socket errors of a connection that went away. */
const CONNECTION_LOSS = new Set(["57P01", "57P02", "57P03", "ECONNRESET", "ECONNREFUSED", "EPIPE", "ETIMEDOUT"]);
const SOCKET_ERRORS = new Set(["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT"]);

const INSTALLED = Symbol.for("pis.driverGuard");

/**
 * Installs the guard once per process: a known driver failure is logged and the process goes on (the
 * runner supervisor replaces what stopped: src/server/jobs/worker.ts); anything else goes on as Node
 * would without the guard: an unhandled rejection becomes an uncaught exception, and an uncaught
 * exception ends the process unless another handler (Next.js's, in the web process) is there to decide.
 */
export function installDriverGuard(): void {
  const globals = globalThis as unknown as Record<symbol, boolean>;
  if (globals[INSTALLED]) return;
  globals[INSTALLED] = true;
  const ignored = (error: unknown, as: "exception" | "rejection") => {
    const known = knownDriverFailure(error, as);
    if (known) logger().warn({ err: error, known }, "database driver failure while the database was away: ignored");
    return known !== undefined;
  };
  process.on("unhandledRejection", (reason) => {
    if (ignored(reason, "rejection") || process.listenerCount("unhandledRejection") > 1) return;
    // Node's default (--unhandled-rejections=throw): thrown again, it is an uncaught exception.
    throw reason;
  });
  process.on("uncaughtException", (error) => {
    if (ignored(error, "exception") || process.listenerCount("uncaughtException") > 1) return;
    logger().fatal({ err: error }, "uncaught exception");
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
