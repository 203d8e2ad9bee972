import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { PASSWORD_MAX_LENGTH } from "./users.inputs";

/**
 * scrypt (memory-hard, in Node's own crypto) at OWASP's current parameters: N=2^17, r=8, p=1,
 * 128 MiB and about 0.3 s per hash (docs/decisions.md "Hardening: console"). The stored hash names
 * its parameters (`scrypt$N$r$p$salt$key`), so a hash made with older ones still verifies and is
 * re-hashed at its user's next successful sign-in (`needsRehash`).
 */
const PARAMS = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;
/** scrypt needs 128·N·r bytes; the largest N a stored hash may name bounds what a verification may take. */
const MAX_N = 2 ** 20;
const maxmemOf = (params: { N: number; r: number; p: number }) => 128 * params.N * params.r + 16 * 1024 * 1024;

/**
 * Hashes at once per process: each holds 128 MiB and one of libuv's four threads for about 0.3 s,
 * so sign-ins can never take the whole thread pool (file reads, DNS) or memory of the process.
 */
const CONCURRENT_HASHES = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT_HASHES) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  return withHashSlot(
    () =>
      new Promise((resolve, reject) =>
        scrypt(password, salt, KEY_LENGTH, { ...params, maxmem: maxmemOf(params) }, (error, key) => (error ? reject(error) : resolve(key))),
      ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return `scrypt$${PARAMS.N}$${PARAMS.r}$${PARAMS.p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

/** The parameters a stored hash names, or undefined for a hash this code cannot verify. */
function parametersOf(stored: string): { N: number; r: number; p: number; salt: Buffer; key: Buffer } | undefined {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  if (scheme !== "scrypt" || !salt || !key) return undefined;
  if (!Number.isInteger(params.N) || params.N < 2 || params.N > MAX_N || (params.N & (params.N - 1)) !== 0) return undefined;
  if (!Number.isInteger(params.r) || params.r < 1 || params.r > 32 || !Number.isInteger(params.p) || params.p < 1 || params.p > 16) return undefined;
  return { ...params, salt: Buffer.from(salt, "base64"), key: Buffer.from(key, "base64") };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const params = parametersOf(stored);
  if (!params) return false;
  const actual = await derive(password, params.salt, params);
  return actual.length === params.key.length && timingSafeEqual(actual, params.key);
}

/** A stored hash made with weaker parameters than today's: re-hashed at the next successful sign-in. */
export function needsRehash(stored: string): boolean {
  const params = parametersOf(stored);
  return !params || params.N < PARAMS.N || params.r < PARAMS.r || params.p < PARAMS.p;
}

/** The console's password policy (docs/decisions.md, Console access): 12 to 200 characters, not the email. */
export const PASSWORD_MIN_LENGTH = 12;
export { PASSWORD_MAX_LENGTH };

/** Why this password is refused, or undefined when it may be used. */
export function passwordProblem(password: string, email: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) return "Password must not be the email address";
  return undefined;
}
