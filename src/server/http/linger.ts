import type { IncomingMessage, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How long a connection refused for its body still drains what the caller sends after the answer. */
export const LINGER_MS = 2_000;

/** The connections already set to linger: the first caller's drain is the one kept. */
const lingering = new WeakSet<Socket>();

/**
 * Closes the connection after the answer as RFC 9112 §9.6 asks of a server closing on a request it
 * did not read whole: our side is shut at once, and what the caller is still sending is read and
 * dropped for up to LINGER_MS, so the caller reads the answer (a 413) instead of a reset that would
 * discard it. Closing a socket with unread bytes makes the kernel send a reset, and a caller still
 * writing loses whatever of the answer it had not yet read. `onDrain` runs as the draining starts;
 * a second call for the same connection (the door, then the gateway behind it) changes nothing.
 */
export function lingerAfterAnswer(req: IncomingMessage, res: ServerResponse, onDrain: () => void = () => {}): void {
  res.shouldKeepAlive = false;
  const socket = req.socket;
  if (lingering.has(socket)) return;
  lingering.add(socket);
  // Node calls it once the last answer on a connection that closes is written.
  socket.destroySoon = () => {
    onDrain();
    // A reader that stopped at the limit paused the request: what follows is read and dropped.
    req.resume();
    socket.end();
    socket.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  };
}
