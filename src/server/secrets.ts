import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { getConfig } from "./config";

/**
 * The service's root secrets. `MASTER_KEY` (32 bytes, base64) keys encryption at rest, token
 * signing and link signatures; `AUTH_SECRET` keys console sessions. In production both are given
 * (decisions §14: production is given, never invents; start-check.ts refuses a start without them).
 * In staging, when unset they are generated once into `DATA_DIR/secrets.json` (mode 0600) so every
 * process on the data directory shares them. `MASTER_KEY_PREVIOUS` is the key a rotation moves away
 * from: still read, never written with (docs/decisions.md, Hardening: production start).
 */
type RootSecrets = { masterKey: Buffer; previousMasterKey?: Buffer; authSecret: string };

let cached: RootSecrets | undefined;
const derived = new Map<string, Buffer>();

export function rootSecrets(): RootSecrets {
  if (cached) return cached;
  const config = getConfig();
  let stored: { master_key?: string; auth_secret?: string } = {};
  if (config.appEnv === "production") {
    if (!config.masterKey) throw new Error("MASTER_KEY is required in production");
    if (!config.authSecret) throw new Error("AUTH_SECRET is required in production");
  } else if (!config.masterKey || !config.authSecret) stored = loadOrCreateSecretsFile(config.dataDir);
  const masterKey = keyOf(config.masterKey ?? stored.master_key ?? "", "MASTER_KEY");
  const previousMasterKey = config.previousMasterKey ? keyOf(config.previousMasterKey, "MASTER_KEY_PREVIOUS") : undefined;
  cached = { masterKey, previousMasterKey, authSecret: config.authSecret ?? stored.auth_secret ?? "" };
  return cached;
}

function keyOf(base64: string, name: string): Buffer {
  const key = Buffer.from(base64, "base64");
  if (key.length !== 32) throw new Error(`${name} must be 32 bytes encoded in base64`);
  return key;
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
  return derive("current", purpose, length) as Buffer;
}

/**
 * The same purpose's key under `MASTER_KEY_PREVIOUS`, while a rotation runs: signatures made before
 * it (access tokens, enrollment links) still verify; nothing new is signed with it.
 */
export function previousDerivedKey(purpose: string, length = 32): Buffer | undefined {
  return derive("previous", purpose, length);
}

function derive(which: "current" | "previous", purpose: string, length: number): Buffer | undefined {
  const cacheKey = `${which}:${purpose}:${length}`;
  let key = derived.get(cacheKey);
  if (!key) {
    const root = which === "current" ? rootSecrets().masterKey : rootSecrets().previousMasterKey;
    if (!root) return undefined;
    key = Buffer.from(hkdfSync("sha256", root, Buffer.alloc(0), `pis:${purpose}`, length));
    derived.set(cacheKey, key);
  }
  return key;
}

/**
 * Sealed values name the master key they were sealed under: `v2:<key id>:<iv>:<body>:<tag>`, the key
 * id a fingerprint derived from the key (it reveals nothing of it). A rotation then finds what is
 * left to re-seal with a prefix match, and a value sealed under a key that is no longer given fails
 * with a message saying so. `v1:<iv>:<body>:<tag>` values (before key ids) are read under either key.
 */
const SEALED_VERSION = "v2";
const LEGACY_VERSION = "v1";

type SealingKey = { id: string; key: Buffer };

function sealingKey(which: "current" | "previous"): SealingKey | undefined {
  const key = derive(which, "encryption-at-rest", 32);
  const id = derive(which, "encryption-key-id-v1", 6);
  return key && id ? { id: id.toString("hex"), key } : undefined;
}

/** The prefix every value sealed under the current `MASTER_KEY` starts with. */
export function currentSealPrefix(): string {
  return `${SEALED_VERSION}:${(sealingKey("current") as SealingKey).id}:`;
}

/** AES-256-GCM encryption at rest for account numbers, SSNs, client and signing secrets. */
export function encryptSecret(plaintext: string): string {
  const { id, key } = sealingKey("current") as SealingKey;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [SEALED_VERSION, id, iv.toString("base64"), body.toString("base64"), tag.toString("base64")].join(":");
}

export function decryptSecret(sealed: string): string {
  const parts = sealed.split(":");
  if (parts[0] === LEGACY_VERSION && parts.length === 4) {
    const candidates = [sealingKey("current"), sealingKey("previous")].filter((key) => key !== undefined);
    for (const [index, { key }] of candidates.entries()) {
      try {
        return open(key, parts[1], parts[2], parts[3]);
      } catch (error) {
        if (index === candidates.length - 1) throw error;
      }
    }
  }
  if (parts[0] !== SEALED_VERSION || parts.length !== 5) throw new Error("Unreadable sealed value");
  const sealer = [sealingKey("current"), sealingKey("previous")].find((key) => key?.id === parts[1]);
  if (!sealer) throw new Error("Sealed under a master key that is neither MASTER_KEY nor MASTER_KEY_PREVIOUS");
  return open(sealer.key, parts[2], parts[3], parts[4]);
}

function open(key: Buffer, iv: string, body: string, tag: string): string {
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
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
