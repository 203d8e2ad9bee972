import { router } from "../../../server/trpc/init";
import { getOwnerDelivery, listOwnerDeliveries, retryOwnerDelivery } from "./owner-deliveries";
import { createOwnerEndpoint, deleteOwnerEndpoint, listOwnerEndpoints, updateOwnerEndpoint } from "./owner-endpoints";
import { getProviderDelivery, listProviderDeliveries, retryProviderDelivery } from "./provider-deliveries";
import { createProviderEndpoint, deleteProviderEndpoint, listProviderEndpoints, updateProviderEndpoint } from "./provider-endpoints";
import { retryOwnerDeliveries, retryProviderDeliveries } from "./retry-deliveries";
import { sendOwnerTestEvent, sendProviderTestEvent } from "./test-event";

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
  sendOwnerTestEvent,
  sendProviderTestEvent,
  retryOwnerDeliveries,
  retryProviderDeliveries,
});
