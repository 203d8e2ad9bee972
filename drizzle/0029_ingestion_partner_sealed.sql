ALTER TABLE "api_clients" ADD COLUMN "partner_client_id" text;--> statement-breakpoint
ALTER TABLE "ingestion_events" ADD COLUMN "sealed_fields" text;--> statement-breakpoint
ALTER TABLE "api_clients" ADD CONSTRAINT "api_clients_partner_client_id_api_clients_id_fk" FOREIGN KEY ("partner_client_id") REFERENCES "public"."api_clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_clients_partner_client_idx" ON "api_clients" USING btree ("partner_client_id");