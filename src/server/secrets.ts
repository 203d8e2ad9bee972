import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "./config";

/**
 * The service's root secrets. `MASTER_KEY` (32 bytes, base64) keys encryption at rest and token
 * signing; `AUTH_SECRET` keys console sessions. When unset they are generated once into
 * `DATA_DIR/secrets.json` (mode 0600) so every process on the data directory shares them. Deployments
 * with several machines set both variables.
 */
type RootSecrets = { masterKey: Buffer; authSecret: string };

let cached: RootSecrets | undefined;
const derived = new Map<string, Buffer>();

export function rootSecrets(): RootSecrets {
  if (cached) return cached;
  const config = getConfig();
  let stored: { master_key?: string; auth_secret?: string } = {};
  if (!config.masterKey || !config.authSecret) stored = loadOrCreateSecretsFile(config.dataDir);
  const masterKey = Buffer.from(config.masterKey ?? stored.master_key ?? "", "base64");
  if (masterKey.length !== 32) throw new Error("MASTER_KEY must be 32 bytes encoded in base64");
  cached = { masterKey, authSecret: config.authSecret ?? stored.auth_secret ?? "" };
  return cached;
}

export function resetRootSecrets(): void {
  cached = undefined;
  derived.clear();
}

function loadOrCreateSecretsFile(dataDir: string): { master_key: string; auth_secret: string } {
  const file = path.join(dataDir, "secrets.json");
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    const fresh = {
      master_key: randomBytes(32).toString("base64"),
      auth_secret: randomBytes(32).toString("base64url"),
    };
    // "wx": never overwrite; a concurrent first start reads the winner's file below.
    fs.writeFileSync(file, JSON.stringify(fresh, null, 2), { flag: "wx", mode: 0o600 });
    return fresh;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return JSON.parse(fs.readFileSync(file, "utf8"));
  }
}

/** A purpose-bound key derived from the master key, so one leaked derived key exposes nothing else. */
export function derivedKey(purpose: string, length = 32): Buffer {
  const cacheKey = `${purpose}:${length}`;
  let key = derived.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", rootSecrets().masterKey, Buffer.alloc(0), `pis:${purpose}`, length));
    derived.set(cacheKey, key);
  }
  return key;
}

const ENCRYPTION_VERSION = "v1";

/** AES-256-GCM encryption at rest for account numbers, SSNs, client and signing secrets. */
export function encryptSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derivedKey("encryption-at-rest"), iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [ENCRYPTION_VERSION, iv.toString("base64"), body.toString("base64"), tag.toString("base64")].join(":");
}

export function decryptSecret(sealed: string): string {
  const [version, iv, body, tag] = sealed.split(":");
  if (version !== ENCRYPTION_VERSION || !iv || body === undefined || !tag) throw new Error("Unreadable sealed value");
  const decipher = createDecipheriv("aes-256-gcm", derivedKey("encryption-at-rest"), Buffer.from(iv, "base64"));
  decipher.setAuthTag(Buffer.from(tag, "base64"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
}

/** Hash of a high-entropy generated secret (client secrets): a fast hash is sufficient for 256 random bits. */
export function hashGeneratedSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, "utf8");
  const right = Buffer.from(b, "utf8");
  return left.length === right.length && timingSafeEqual(left, right);
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString("base64url");
}
