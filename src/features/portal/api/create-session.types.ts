import { z } from "zod";
import { httpsOrigin } from "../../../server/origins";
import type { Meta } from "../../../server/trpc/init";
import { PORTAL_SESSION_SECONDS } from "../session";

export const createPortalSessionMeta: Meta = {
  openapi: {
    method: "POST",
    path: "/partners/{owner_slug}/portal_sessions",
    tags: ["Partner portal"],
    summary: "Open a partner portal session",
    description: `Answers a URL, valid ${PORTAL_SESSION_SECONDS / 60} minutes, that opens the webhook portal for this client and this owner: endpoints with their status and health (success rate and last failure over 7 days), deliveries with a status filter, each delivery's exact payload and attempts with their failure reasons, retry of a delivery, pause and resume of an endpoint. It shows only the endpoints this client registered under this owner, whatever the portal's path names. The link opens once: its first visit trades it for a session cookie (HttpOnly, scoped to \`/portal\`, ending with the link), and a second visit, an expired or an altered link opens a page saying so. The session ends at sign-out, when this client's secret is rotated, when it loses \`webhooks:manage\` or the owner's grant, or when it is disabled. To put the portal in your own admin, name your admin's origins in \`frame_ancestors\` (each must be listed in the owner's \`embedded_frame_ancestors\`); without them the portal cannot be framed. Example: \`curl -X POST {base_url}/partners/maple/portal_sessions -H 'Authorization: Bearer …' -H 'Content-Type: application/json' -d '{}'\` → \`201 {"status_code": 201, "url": "https://pis.example.com/portal/session/v1.…", "expires_at": "2026-11-26T09:00:00.000Z"}\`.`,
  },
  inputErrors: { kind: "fields", error: "Request is invalid" },
  responses: { created: true, errors: [400, 401, 403, 404, 415, 422] },
};

export const createPortalSessionInput = z
  .object({
    owner_slug: z.string(),
    frame_ancestors: z
      .array(httpsOrigin)
      .max(10)
      .optional()
      .meta({
        description:
          "HTTPS origins that may frame this session's portal (your admin); each must be in the owner's `embedded_frame_ancestors`. Absent: not frameable",
        example: ["https://admin.partner.example"],
      }),
  })
  .strict();

export const createPortalSessionOutput = z.object({
  status_code: z.number().int(),
  url: z
    .string()
    .meta({ description: "Open it in a browser or an iframe; valid until `expires_at`", example: "https://pis.example.com/portal/session/v1.eyJj….Zm9v" }),
  expires_at: z.string().meta({ description: "One hour after the session was opened (ISO 8601)", example: "2026-11-26T09:00:00.000Z" }),
});
