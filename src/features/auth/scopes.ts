/** Gateway scopes (decisions §5). Each route requires exactly one. */
export const PARTNER_SCOPES = [
  "owners:write",
  "onboarding:write",
  "prospects:write",
  "prospects:read",
  "move_outs:write",
  "move_outs:read",
  "webhooks:manage",
  "residents:reset",
] as const;

export const INGESTION_SCOPES = ["events:write"] as const;

export type PartnerScope = (typeof PARTNER_SCOPES)[number];
export type IngestionScope = (typeof INGESTION_SCOPES)[number];
export type Scope = PartnerScope | IngestionScope;
export type Gateway = "partner" | "ingestion";

export function scopesOfGateway(gateway: Gateway): readonly Scope[] {
  return gateway === "partner" ? PARTNER_SCOPES : INGESTION_SCOPES;
}

/** Parses a space-separated `scope` parameter; unknown names are returned separately. */
export function parseScopeParam(gateway: Gateway, param: string): { scopes: Scope[]; unknown: string[] } {
  const known = new Set<string>(scopesOfGateway(gateway));
  const names = [...new Set(param.split(/\s+/).filter(Boolean))];
  return {
    scopes: names.filter((name): name is Scope => known.has(name)),
    unknown: names.filter((name) => !known.has(name)),
  };
}
