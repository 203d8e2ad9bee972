import { z } from "zod";
import { router } from "../../../server/trpc/init";
import { staffProcedure } from "../procedures";
import {
  clientCreateInput,
  clientDetail,
  clientForConsole,
  clientIdInput,
  clientRow,
  clientSearchInput,
  clientStatusInput,
  clientUpdateInput,
  createClientByStaff,
  createdClient,
  rotateClientSecret,
  searchClients,
  setClientDisabled,
  updateClient,
} from "./clients";
import { grantInput, grantOwnerByStaff, grantResult, ownerOption, ownerOptions, ownerOptionsInput, revokeOwnerGrant } from "./grants";

/**
 * The console's API clients and owner grants (docs/decisions.md, "Console: access management, part A"; decisions §12: account managers and
 * operators manage access). A secret leaves the service only in the answer of `create` and
 * `rotateSecret`, shown once.
 */
export const clientsConsoleRouter = router({
  search: staffProcedure("access.read")
    .input(clientSearchInput)
    .output(z.array(clientRow))
    .query(({ ctx, input }) => searchClients(ctx.db, input)),
  detail: staffProcedure("access.read")
    .input(clientIdInput)
    .output(clientDetail)
    .query(({ ctx, input }) => clientForConsole(ctx.db, input.client_id)),
  ownerOptions: staffProcedure("access.read")
    .input(ownerOptionsInput)
    .output(z.array(ownerOption))
    .query(({ ctx, input }) => ownerOptions(ctx.db, input)),
  create: staffProcedure("access.manage")
    .input(clientCreateInput)
    .output(createdClient)
    .mutation(({ ctx, input }) => createClientByStaff(ctx.db, ctx.actor, input)),
  update: staffProcedure("access.manage")
    .input(clientUpdateInput)
    .output(clientRow)
    .mutation(({ ctx, input }) => updateClient(ctx.db, ctx.actor, input)),
  setDisabled: staffProcedure("access.manage")
    .input(clientStatusInput)
    .output(clientRow)
    .mutation(({ ctx, input }) => setClientDisabled(ctx.db, ctx.actor, input)),
  rotateSecret: staffProcedure("secrets.manage")
    .input(clientIdInput)
    .output(createdClient)
    .mutation(({ ctx, input }) => rotateClientSecret(ctx.db, ctx.actor, input.client_id)),
  grantOwner: staffProcedure("access.manage")
    .input(grantInput)
    .output(grantResult)
    .mutation(({ ctx, input }) => grantOwnerByStaff(ctx.db, ctx.actor, input)),
  revokeOwner: staffProcedure("access.manage")
    .input(grantInput)
    .output(grantResult)
    .mutation(({ ctx, input }) => revokeOwnerGrant(ctx.db, ctx.actor, input)),
});
