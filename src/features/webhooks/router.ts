import { router } from "../../server/trpc/init";
import { getDeliveryProcedure, listDeliveriesProcedure, retryDeliveryProcedure } from "./api/deliveries";
import { createOwnerEndpoint, deleteOwnerEndpoint, listOwnerEndpoints, updateOwnerEndpoint } from "./api/owner-endpoints";
import { createProviderEndpoint, deleteProviderEndpoint, listProviderEndpoints, updateProviderEndpoint } from "./api/provider-endpoints";

export const webhooksRestRouter = router({
  createOwnerEndpoint,
  listOwnerEndpoints,
  updateOwnerEndpoint,
  deleteOwnerEndpoint,
  createProviderEndpoint,
  listProviderEndpoints,
  updateProviderEndpoint,
  deleteProviderEndpoint,
  listDeliveries: listDeliveriesProcedure,
  getDelivery: getDeliveryProcedure,
  retryDelivery: retryDeliveryProcedure,
});
