ALTER TABLE "webhook_endpoints" ADD COLUMN "first_delivered_at" timestamp with time zone;--> statement-breakpoint
-- Endpoints that have already answered keep their full limit: their first delivered attempt, found by
-- webhook_deliveries_endpoint_attempted_idx (endpoint, status, last attempt) in one probe each.
UPDATE "webhook_endpoints" e SET "first_delivered_at" = (
  SELECT min(d."last_attempted_at") FROM "webhook_deliveries" d WHERE d."endpoint_id" = e."id" AND d."status" = 'delivered'
);
