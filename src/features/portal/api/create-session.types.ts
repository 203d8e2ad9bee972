import { z } from "zod";
import type { Meta } from "../../../server/trpc/init";
import { PORTAL_SESSION_SECONDS } from "../session";

export const createPortalSessionMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/partners/{owner_slug}/portal_sessions",
    tags: ["Partner portal"],
    summary: "Open a partner portal session",
    description: `Answers a URL, valid ${PORTAL_SESSION_SECONDS / 60} minutes, that opens the webhook portal for this client and this owner: endpoints with their status and health (success rate and last failure over 7 days), deliveries with a status filter, each delivery's exact payload and attempts with their failure reasons, retry of a delivery, pause and resume of an endpoint. It shows only the endpoints this client registered under this owner, whatever the portal's path names. Put it in your own admin: the portal may be framed by the owner's \`embedded_frame_ancestors\` and by no other origin. The first visit trades the link for a session cookie (HttpOnly, scoped to \`/portal\`, ending with the link); an expired or altered link opens a page saying so. Example: \`curl -X POST {base_url}/partners/maple/portal_sessions -H 'Authorization: Bearer …' -H 'Content-Type: application/json' -d '{}'\` → \`201 {"status_code": 201, "url": "https://pis.example.com/portal/session/v1.…", "expires_at": "2026-11-26T09:00:00.000Z"}\`.`,
  },
  inputErrors: { kind: "fields", error: "Request is invalid" },
  responses: { created: true, errors: [400, 401, 403, 404, 415, 422] },
};

export const createPortalSessionInput = z.object({ owner_slug: z.string() }).strict();

export const createPortalSessionOutput = z.object({
  status_code: z.number().int(),
  url: z
    .string()
    .meta({ description: "Open it in a browser or an iframe; valid until `expires_at`", example: "https://pis.example.com/portal/session/v1.eyJj….Zm9v" }),
  expires_at: z.string().meta({ description: "One hour after the session was opened (ISO 8601)", example: "2026-11-26T09:00:00.000Z" }),
});
