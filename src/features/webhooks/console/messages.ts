/** The console's delivery messages, in one place (style §8). */
export const CONSOLE_DELIVERY_MESSAGES = {
  ownerNotFound: (slug: string) => `No owner ${slug}`,
  deliveryNotFound: "Webhook delivery not found",
  endpointNotFound: "Webhook endpoint not found",
  endpointDeleted: "The delivery's endpoint was deleted; it cannot be retried",
  endpointWithoutClient: "This endpoint predates API clients; change it through the database",
  badCursor: "is not a cursor from a previous page",
  bulkRetryNotFound: "Bulk retry not found",
} as const;
