import { PORTAL_ENTRY_PATH, signPortalToken } from "./session";

/** The portal URL of a new session (decisions §16 Portal): `{PUBLIC_BASE_URL}/portal/session/<token>`. */
export function openPortalSession(publicBaseUrl: string, clientId: string, ownerId: number): { url: string; expiresAt: Date } {
  const { token, expiresAt } = signPortalToken(clientId, ownerId);
  return { url: `${publicBaseUrl.replace(/\/+$/, "")}${PORTAL_ENTRY_PATH}/${token}`, expiresAt };
}
