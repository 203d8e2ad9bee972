import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";
import type { Gateway } from "../scopes";

export function tokenMeta(gateway: Gateway): Meta {
  return {
    openapi: {
      method: "POST",
      path: "/token",
      protect: false,
      tags: ["Authentication"],
      summary: "Exchange client credentials for an access token",
      description: `Client credentials grant on the ${gateway === "partner" ? "Partner API" : "event ingestion"} gateway. Leave \`scope\` out to receive every granted scope; a subset narrows the token. Tokens last \`expires_in\` seconds (8600): cache one per process and refresh near expiry. Rejected credentials, or a wrong pair of credentials and audience, answer 401 \`{error: access_denied, error_description: Unauthorized}\`.`,
    },
    inputErrors: { kind: "oauth" },
    responses: { errors: [400, 401, 415] },
  };
}

export const tokenInput = z.object({
  grant_type: z.string().min(1).meta({ example: "client_credentials" }),
  client_id: z.string().min(1).max(200),
  client_secret: z.string().min(1).max(500),
  audience: z.string().min(1).max(500),
  scope: z.string().max(2000).optional().meta({ description: "Space-separated subset of the granted scopes" }),
});

export const tokenOutput = z.object({
  access_token: z.string(),
  token_type: z.literal("Bearer"),
  scope: z.string().meta({ description: "Space-separated scopes carried by the token" }),
  expires_in: z.number().int().meta({ example: 8600 }),
});
