CREATE TABLE "bulk_retries" (
	"id" serial PRIMARY KEY NOT NULL,
	"filter" jsonb NOT NULL,
	"owner_id" integer,
	"cutoff" timestamp with time zone NOT NULL,
	"matched" integer NOT NULL,
	"enqueued" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"requested_by" text NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "webhook_deliveries_endpoint_idx";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "owner_id" integer;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "event" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "source_prospect_id" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "policy_number" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "move_out_id" integer;--> statement-breakpoint
-- Backfill (hand-written): existing deliveries take their event's owner and name; existing events
-- the records their payload names, as recordRefsOf (src/features/webhooks/record-refs.ts) reads them.
UPDATE "webhook_deliveries" d SET "owner_id" = e."owner_id", "event" = e."event" FROM "webhook_events" e WHERE e."id" = d."event_id";--> statement-breakpoint
UPDATE "webhook_events" SET
	"source_prospect_id" = coalesce(
		nullif(jsonb_path_query_first("body"::jsonb, '$.data.*.source_prospect_id') #>> '{}', ''),
		CASE WHEN "event" = 'prospect.created' THEN nullif(jsonb_path_query_first("body"::jsonb, '$.data.*.id') #>> '{}', '') END),
	"policy_number" = nullif(jsonb_path_query_first("body"::jsonb, '$.data.*.policy_number') #>> '{}', ''),
	"move_out_id" = CASE WHEN jsonb_typeof(jsonb_path_query_first("body"::jsonb, '$.data.*.move_out_id')) = 'number'
		THEN (jsonb_path_query_first("body"::jsonb, '$.data.*.move_out_id') #>> '{}')::integer END;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "owner_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "event" SET NOT NULL;--> statement-breakpoint
CREATE INDEX "bulk_retries_created_idx" ON "bulk_retries" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created_idx" ON "webhook_deliveries" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_owner_idx" ON "webhook_deliveries" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_name_idx" ON "webhook_deliveries" USING btree ("event","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_status_idx" ON "webhook_deliveries" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_failed_idx" ON "webhook_deliveries" USING btree ("owner_id","created_at","id") WHERE "webhook_deliveries"."status" = 'failed';--> statement-breakpoint
CREATE INDEX "webhook_events_source_prospect_idx" ON "webhook_events" USING btree ("source_prospect_id") WHERE "webhook_events"."source_prospect_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_events_policy_number_idx" ON "webhook_events" USING btree ("policy_number") WHERE "webhook_events"."policy_number" is not null;--> statement-breakpoint
CREATE INDEX "webhook_events_move_out_idx" ON "webhook_events" USING btree ("move_out_id") WHERE "webhook_events"."move_out_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at","id");