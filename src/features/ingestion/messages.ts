export const INGESTION_MESSAGES = {
  invalid: "Event is invalid",
  unknownType: "type must be prospect.upserted",
  unknownOwner: "owner_slug does not name a property owner",
  notGranted: "client is not authorized for this property owner",
  unknownSource: "source is not a configured source",
  foreignSource: "source is not a source of this client or of its partner client",
  future: "occurred_at is more than 5 minutes ahead of the service's clock",
  stale: "occurred_at is older than the last event applied to this prospect",
  termsRequired: "terms_accepted_at is required when the event creates the prospect",
} as const;
