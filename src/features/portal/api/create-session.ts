import { getConfig } from "../../../server/config";
import { jsonBody } from "../../../server/http/json-body";
import { ownerProcedure } from "../../auth/procedures";
import { openPortalSession } from "../open";
import { createPortalSessionInput, createPortalSessionMeta, createPortalSessionOutput } from "./create-session.types";

/** decisions §16 Portal: `POST /partners/{owner_slug}/portal_sessions`, scope `webhooks:manage`. */
export const createPortalSession = ownerProcedure("webhooks:manage")
  .meta(createPortalSessionMeta)
  .input(jsonBody(createPortalSessionInput))
  .output(createPortalSessionOutput)
  .mutation(({ ctx }) => {
    const session = openPortalSession(getConfig().publicBaseUrl, ctx.client.id, ctx.owner.id);
    ctx.rest.status = 201;
    return { status_code: 201, url: session.url, expires_at: session.expiresAt.toISOString() };
  });
