import { getConfig } from "../../../server/config";
import { errors, GATEWAY_MESSAGES } from "../../../server/errors";
import { jsonBody } from "../../../server/http/json-body";
import { recordAudit } from "../../audit/audit";
import { ownerProcedure } from "../../auth/procedures";
import { PORTAL_MESSAGES } from "../messages";
import { openPortalSession } from "../session";
import { createPortalSessionInput, createPortalSessionMeta, createPortalSessionOutput } from "./create-session.types";

/**
 * decisions §16 Portal: `POST /partners/{owner_slug}/portal_sessions`, scope `webhooks:manage`. The
 * session may be framed only by the origins this client names in `frame_ancestors`, each one the owner
 * lists in `embedded_frame_ancestors` (docs/decisions.md, "Second security review"); audited with the
 * session it opened.
 */
export const createPortalSession = ownerProcedure("webhooks:manage")
  .meta(createPortalSessionMeta)
  .input(jsonBody(createPortalSessionInput))
  .output(createPortalSessionOutput)
  .mutation(async ({ ctx, input }) => {
    const asked = [...new Set(input.frame_ancestors ?? [])];
    const listed = new Set(ctx.owner.embeddedFrameAncestors ?? []);
    const unlisted = asked.filter((origin) => !listed.has(origin));
    if (unlisted.length > 0) throw errors.invalidFields(GATEWAY_MESSAGES.requestInvalid, { frame_ancestors: [PORTAL_MESSAGES.frameNotListed(unlisted)] });
    const session = await ctx.db.transaction(async (tx) => {
      const opened = await openPortalSession(tx, {
        publicBaseUrl: getConfig().publicBaseUrl,
        clientId: ctx.client.id,
        secretVersion: ctx.client.secretVersion,
        ownerId: ctx.owner.id,
        frameAncestors: asked,
      });
      await recordAudit(
        tx,
        { client: ctx.client.id, portalSession: opened.id },
        {
          action: "portal_sessions.create",
          subject: { type: "portal_session", id: opened.id },
          ownerId: ctx.owner.id,
          after: { expires_at: opened.expiresAt.toISOString(), frame_ancestors: asked },
        },
      );
      return opened;
    });
    ctx.rest.status = 201;
    return { status_code: 201, url: session.url, expires_at: session.expiresAt.toISOString() };
  });
