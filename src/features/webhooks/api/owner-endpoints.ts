import { z } from "zod";
import { jsonBody } from "../../../server/http/json-body";
import { ownerProcedure } from "../../auth/procedures";
import { createEndpoint, deleteEndpoint, endpointView, listEndpoints, ownerSubscriber, updateEndpoint } from "../endpoints";
import { createBody, endpointMeta, endpointOutput, endpointsOutput, updateBody } from "./endpoint.types";

const scoped = z.object({ owner_slug: z.string() });
const withId = scoped.extend({ id: z.string() });

export const createOwnerEndpoint = ownerProcedure("webhooks:manage")
  .meta(endpointMeta("owner", "create"))
  .input(jsonBody(scoped.extend(createBody.shape)))
  .output(endpointOutput)
  .mutation(async ({ ctx, input }) => {
    // In a transaction: it enters the owner's merge gate, and `ctx.owner` is read after it (a write
    // under a merged owner's slug lands on the survivor; owners/merge/gate.ts).
    const endpoint = await ctx.db.transaction((tx) => createEndpoint(tx, ownerSubscriber(ctx.owner, ctx.client.id), input.endpoint));
    ctx.rest.status = 201;
    return { status_code: 201, endpoint: endpointView(endpoint) };
  });

export const listOwnerEndpoints = ownerProcedure("webhooks:manage")
  .meta(endpointMeta("owner", "list"))
  .input(scoped)
  .output(endpointsOutput)
  .query(async ({ ctx }) => ({
    status_code: 200,
    endpoints: (await listEndpoints(ctx.db, ownerSubscriber(ctx.owner, ctx.client.id))).map(endpointView),
  }));

export const updateOwnerEndpoint = ownerProcedure("webhooks:manage")
  .meta(endpointMeta("owner", "update"))
  .input(jsonBody(withId.extend(updateBody.shape)))
  .output(endpointOutput)
  .mutation(async ({ ctx, input }) => ({
    status_code: 200,
    endpoint: endpointView(await updateEndpoint(ctx.db, ownerSubscriber(ctx.owner, ctx.client.id), input.id, input.endpoint)),
  }));

export const deleteOwnerEndpoint = ownerProcedure("webhooks:manage")
  .meta(endpointMeta("owner", "delete"))
  .input(withId)
  .output(endpointOutput)
  .mutation(async ({ ctx, input }) => ({
    status_code: 200,
    endpoint: endpointView(await deleteEndpoint(ctx.db, ownerSubscriber(ctx.owner, ctx.client.id), input.id)),
  }));
