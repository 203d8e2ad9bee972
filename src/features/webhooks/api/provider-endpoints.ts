import { z } from "zod";
import { jsonBody } from "../../../server/http/json-body";
import { partnerProcedure } from "../../auth/procedures";
import { createEndpoint, deleteEndpoint, endpointView, listEndpoints, providerSubscriber, updateEndpoint } from "../endpoints";
import { createBody, endpointMeta, endpointOutput, endpointsOutput, updateBody } from "./endpoint.types";

const scoped = z.object({ provider: z.string() });
const withId = scoped.extend({ id: z.string() });

export const createProviderEndpoint = partnerProcedure("webhooks:manage")
  .meta(endpointMeta("provider", "create"))
  .input(jsonBody(scoped.extend(createBody.shape)))
  .output(endpointOutput)
  .mutation(async ({ ctx, input }) => {
    const endpoint = await createEndpoint(ctx.db, await providerSubscriber(ctx.db, input.provider, ctx.client.id), input.endpoint);
    ctx.rest.status = 201;
    return { status_code: 201, endpoint: endpointView(endpoint) };
  });

export const listProviderEndpoints = partnerProcedure("webhooks:manage")
  .meta(endpointMeta("provider", "list"))
  .input(scoped)
  .output(endpointsOutput)
  .query(async ({ ctx, input }) => ({
    status_code: 200,
    endpoints: (await listEndpoints(ctx.db, await providerSubscriber(ctx.db, input.provider, ctx.client.id))).map(endpointView),
  }));

export const updateProviderEndpoint = partnerProcedure("webhooks:manage")
  .meta(endpointMeta("provider", "update"))
  .input(jsonBody(withId.extend(updateBody.shape)))
  .output(endpointOutput)
  .mutation(async ({ ctx, input }) => ({
    status_code: 200,
    endpoint: endpointView(await updateEndpoint(ctx.db, await providerSubscriber(ctx.db, input.provider, ctx.client.id), input.id, input.endpoint)),
  }));

export const deleteProviderEndpoint = partnerProcedure("webhooks:manage")
  .meta(endpointMeta("provider", "delete"))
  .input(withId)
  .output(endpointOutput)
  .mutation(async ({ ctx, input }) => ({
    status_code: 200,
    endpoint: endpointView(await deleteEndpoint(ctx.db, await providerSubscriber(ctx.db, input.provider, ctx.client.id), input.id)),
  }));
