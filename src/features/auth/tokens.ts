import { createPrivateKey, createPublicKey, type KeyObject } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { getConfig } from "../../server/config";
import { derivedKey, previousDerivedKey, randomToken } from "../../server/secrets";
import { TtlCache } from "../../server/ttl-cache";
import type { Gateway, Scope } from "./scopes";

/** spec Token exchange 3: tokens last 8600 seconds and `expires_in` says so. */
export const TOKEN_LIFETIME_SECONDS = 8600;

// PKCS#8 DER prefix of an Ed25519 private key; the 32-byte seed follows.
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

type SigningKey = { kid: string; privateKey: KeyObject; publicKey: KeyObject };
let signingKey: SigningKey | undefined;
let previousKey: SigningKey | null | undefined;

/**
 * The EdDSA key is derived from the master key, so it persists with it (DATA_DIR or MASTER_KEY) and
 * every process of a deployment signs and verifies alike without sharing a key file.
 */
function key(): SigningKey {
  signingKey ??= signingKeyOf(derivedKey("jwt-signing-ed25519-v1"), derivedKey("jwt-kid-v1", 8));
  return signingKey;
}

/** During a master key rotation, tokens signed under `MASTER_KEY_PREVIOUS` verify until they expire (and within the token age). */
function previousSigningKey(): SigningKey | undefined {
  if (previousKey === undefined) {
    const seed = previousDerivedKey("jwt-signing-ed25519-v1");
    const kid = previousDerivedKey("jwt-kid-v1", 8);
    previousKey = seed && kid ? signingKeyOf(seed, kid) : null;
  }
  return previousKey ?? undefined;
}

function signingKeyOf(seed: Buffer, kid: Buffer): SigningKey {
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
  return { kid: kid.toString("hex"), privateKey, publicKey: createPublicKey(privateKey) };
}

export function resetSigningKey(): void {
  signingKey = undefined;
  previousKey = undefined;
  verifiedTokens.clear();
}

export function audienceOf(gateway: Gateway): string {
  const config = getConfig();
  return gateway === "partner" ? config.partnerAudience : config.ingestionAudience;
}

function issuer(): string {
  return `urn:pis:${getConfig().appEnv}`;
}

/** `secretVersion`: the client's secret version at issue (absent = 1, the first secret). */
export type TokenClaims = { clientId: string; gateway: Gateway; scopes: Scope[]; secretVersion?: number };

export async function issueAccessToken(claims: TokenClaims, now = new Date()): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return signAccessToken(claims, iat, iat + TOKEN_LIFETIME_SECONDS);
}

/** Signs a token with the current key, issued and expiring at the times given (seconds); `issueAccessToken` is the one caller outside tests. */
export async function signAccessToken(claims: TokenClaims, issuedAt: number, expiresAt: number): Promise<string> {
  return new SignJWT({ scope: claims.scopes.join(" "), gty: "client-credentials", sv: claims.secretVersion ?? 1 })
    .setProtectedHeader({ alg: "EdDSA", kid: key().kid, typ: "JWT" })
    .setIssuer(issuer())
    .setAudience(audienceOf(claims.gateway))
    .setSubject(claims.clientId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(randomToken(12))
    .sign(key().privateKey);
}

/** How far ahead of this process's clock a token's issue time may be (another process's clock). */
const ISSUED_AHEAD_SECONDS = 60;

/**
 * A token is at most as old, and as long-lived, as this service issues them (8600 s): whatever its
 * `exp` says, under the current key or under `MASTER_KEY_PREVIOUS` during a rotation, whose holder
 * (a leaked former key) could otherwise sign one that never expires (docs/decisions.md,
 * "Partner developer: rate limits", token age).
 */
function withinTokenAge(iat: unknown, exp: number, now: Date): boolean {
  if (typeof iat !== "number") return false;
  const nowSeconds = now.getTime() / 1000;
  return iat <= nowSeconds + ISSUED_AHEAD_SECONDS && nowSeconds - iat <= TOKEN_LIFETIME_SECONDS && exp - iat <= TOKEN_LIFETIME_SECONDS;
}

/** Verifies signature, issuer, audience (the gateway) and expiry; undefined for any failure. */
export async function verifyAccessToken(token: string, gateway: Gateway, now = new Date()): Promise<TokenClaims | undefined> {
  return (await verify(token, gateway, now))?.claims;
}

/**
 * A token verified once is remembered until its own expiry (at most a minute here), so a partner
 * sending many requests with one token pays for one signature check: the signature's answer cannot
 * change before it expires. Revocation (a rotated secret, a removed scope) is decided against the
 * client row on every request, not here. Failures are not remembered.
 */
const verifiedTokens = new TtlCache<TokenClaims>(60_000);

export async function verifyAccessTokenCached(token: string, gateway: Gateway): Promise<TokenClaims | undefined> {
  const cacheKey = `${audienceOf(gateway)} ${issuer()} ${token}`;
  const hit = verifiedTokens.get(cacheKey);
  if (hit) return hit;
  const verified = await verify(token, gateway, new Date());
  if (verified) verifiedTokens.set(cacheKey, verified.claims, verified.expiresAt);
  return verified?.claims;
}

async function verify(token: string, gateway: Gateway, now: Date): Promise<{ claims: TokenClaims; expiresAt: number } | undefined> {
  try {
    const previous = previousSigningKey();
    const { payload } = await jwtVerify(token, (header) => (previous && header.kid === previous.kid ? previous.publicKey : key().publicKey), {
      algorithms: ["EdDSA"],
      issuer: issuer(),
      audience: audienceOf(gateway),
      currentDate: now,
    });
    if (typeof payload.sub !== "string" || typeof payload.scope !== "string" || typeof payload.exp !== "number") return undefined;
    if (!withinTokenAge(payload.iat, payload.exp, now)) return undefined;
    return {
      claims: {
        clientId: payload.sub,
        gateway,
        scopes: payload.scope.split(" ").filter(Boolean) as Scope[],
        secretVersion: typeof payload.sv === "number" ? payload.sv : 1,
      },
      // Remembered no longer than the token age allows either.
      expiresAt: Math.min(payload.exp, (payload.iat as number) + TOKEN_LIFETIME_SECONDS) * 1000,
    };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return undefined;
    throw error;
  }
}
