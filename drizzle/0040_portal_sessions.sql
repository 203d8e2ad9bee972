CREATE TABLE "portal_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"owner_id" integer NOT NULL,
	"secret_version" integer NOT NULL,
	"frame_ancestors" text[] DEFAULT '{}' NOT NULL,
	"cookie_hash" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"exchanged_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD CONSTRAINT "portal_sessions_client_id_api_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."api_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portal_sessions" ADD CONSTRAINT "portal_sessions_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "portal_sessions_cookie_hash_key" ON "portal_sessions" USING btree ("cookie_hash");--> statement-breakpoint
CREATE INDEX "portal_sessions_client_idx" ON "portal_sessions" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "portal_sessions_owner_idx" ON "portal_sessions" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "portal_sessions_expires_idx" ON "portal_sessions" USING btree ("expires_at");