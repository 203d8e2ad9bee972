import { router } from "../../server/trpc/init";
import { getOwnerDelivery, listOwnerDeliveries, retryOwnerDelivery } from "./api/owner-deliveries";
import { createOwnerEndpoint, deleteOwnerEndpoint, listOwnerEndpoints, updateOwnerEndpoint } from "./api/owner-endpoints";
import { getProviderDelivery, listProviderDeliveries, retryProviderDelivery } from "./api/provider-deliveries";
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
  listDeliveries: listOwnerDeliveries,
  getDelivery: getOwnerDelivery,
  retryDelivery: retryOwnerDelivery,
  listProviderDeliveries,
  getProviderDelivery,
  retryProviderDelivery,
});
