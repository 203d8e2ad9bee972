CREATE TABLE "webhook_delivery_replays" (
	"delivery_id" text PRIMARY KEY NOT NULL,
	"replayed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_delivery_replays" ADD CONSTRAINT "webhook_delivery_replays_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;