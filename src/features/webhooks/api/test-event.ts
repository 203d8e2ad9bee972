import { z } from "zod";
import { jsonBody } from "../../../server/http/json-body";
import { ownerProcedure, partnerProcedure } from "../../auth/procedures";
import { ownerSubscriber, providerSubscriber } from "../endpoints";
import { sendTestEvent } from "../test-events";
import { testEventBody, testEventMeta, testEventOutput } from "./test-event.types";

export const sendOwnerTestEvent = ownerProcedure("webhooks:manage")
  .meta(testEventMeta("owner"))
  .input(jsonBody(z.object({ owner_slug: z.string(), id: z.string(), ...testEventBody.shape }).strict()))
  .output(testEventOutput)
  .mutation(async ({ ctx, input }) => {
    const { deliveryId } = await sendTestEvent(ctx.db, ownerSubscriber(ctx.owner, ctx.client.id), input.id, input.event);
    ctx.rest.status = 202;
    return { status_code: 202, delivery_id: deliveryId };
  });

export const sendProviderTestEvent = partnerProcedure("webhooks:manage")
  .meta(testEventMeta("provider"))
  .input(jsonBody(z.object({ provider: z.string(), id: z.string(), ...testEventBody.shape }).strict()))
  .output(testEventOutput)
  .mutation(async ({ ctx, input }) => {
    const { deliveryId } = await sendTestEvent(ctx.db, await providerSubscriber(ctx.db, input.provider, ctx.client.id), input.id, input.event);
    ctx.rest.status = 202;
    return { status_code: 202, delivery_id: deliveryId };
  });
