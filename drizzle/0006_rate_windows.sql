CREATE TABLE "webhook_rate_windows" (
	"endpoint_id" text PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_rate_windows" ADD CONSTRAINT "webhook_rate_windows_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP COLUMN "rate_window_started_at";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP COLUMN "rate_window_count";