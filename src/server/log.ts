import pino from "pino";
import { getConfig } from "./config";

/**
 * JSON logs. Secrets never reach a log line: known secret-bearing keys are redacted wherever they
 * appear, and request bodies are never logged.
 */
const REDACT = [
  "client_secret",
  "*.client_secret",
  "access_token",
  "*.access_token",
  "authorization",
  "*.authorization",
  "headers.authorization",
  "password",
  "*.password",
  "account_number",
  "*.account_number",
  "social_security_number",
  "*.social_security_number",
  "signing_secret",
  "*.signing_secret",
  "x-request-signature",
  "*.x-request-signature",
];

/**
 * Lines are written in batches, one write system call per turn of the event loop (issue 9 item 16:
 * one call per line, the access line of every request included, was about 3% of the web process's
 * CPU under load). A line is queued and written, with the others of the same turn, as soon as the
 * turn's I/O callbacks are done (`setImmediate`): no timer, and no line waits for quieter or busier
 * moments. On exit — a normal stop, Ctrl-C, or a crash by an uncaught error — what is queued is
 * written synchronously first, so a failed request keeps its lines, even one that takes the process
 * down. Only a process killed outright (SIGKILL, out of memory) can lose the lines of its last turn.
 */
function batchedStdout(): { write: (line: string) => void } {
  const out = pino.destination({ dest: 1, sync: true });
  let queued: string[] = [];
  const flush = () => {
    if (queued.length === 0) return;
    const text = queued.join("");
    queued = [];
    out.write(text);
  };
  process.on("exit", flush);
  return {
    write(line: string) {
      if (queued.push(line) === 1) setImmediate(flush);
    },
  };
}

let root: pino.Logger | undefined;

export function logger(): pino.Logger {
  if (!root) {
    root = pino(
      {
        level: getConfig().logLevel,
        base: { service: "partner-integration-service" },
        redact: { paths: REDACT, censor: "[redacted]" },
        timestamp: pino.stdTimeFunctions.isoTime,
      },
      batchedStdout(),
    );
  }
  return root;
}
