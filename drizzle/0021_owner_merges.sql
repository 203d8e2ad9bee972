CREATE TABLE "owner_merge_building_access" (
	"merge_id" integer NOT NULL,
	"client_id" text NOT NULL,
	"property_id" integer NOT NULL,
	CONSTRAINT "owner_merge_building_access_client_id_property_id_merge_id_pk" PRIMARY KEY("client_id","property_id","merge_id")
);
--> statement-breakpoint
CREATE TABLE "owner_merges" (
	"id" serial PRIMARY KEY NOT NULL,
	"from_owner_id" integer NOT NULL,
	"into_owner_id" integer NOT NULL,
	"from_slug" text NOT NULL,
	"into_slug" text NOT NULL,
	"moved" jsonb NOT NULL,
	"conflicts" jsonb NOT NULL,
	"actor" text NOT NULL,
	"merged_at" timestamp with time zone NOT NULL,
	"from_signing_secret_encrypted" text NOT NULL,
	"secret_valid_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "property_owners" ADD COLUMN "merged_into_id" integer;--> statement-breakpoint
ALTER TABLE "owner_merge_building_access" ADD CONSTRAINT "owner_merge_building_access_merge_id_owner_merges_id_fk" FOREIGN KEY ("merge_id") REFERENCES "public"."owner_merges"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_merge_building_access" ADD CONSTRAINT "owner_merge_building_access_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_merges" ADD CONSTRAINT "owner_merges_from_owner_id_property_owners_id_fk" FOREIGN KEY ("from_owner_id") REFERENCES "public"."property_owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_merges" ADD CONSTRAINT "owner_merges_into_owner_id_property_owners_id_fk" FOREIGN KEY ("into_owner_id") REFERENCES "public"."property_owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "owner_merge_building_access_property_idx" ON "owner_merge_building_access" USING btree ("property_id");--> statement-breakpoint
CREATE INDEX "owner_merge_building_access_merge_idx" ON "owner_merge_building_access" USING btree ("merge_id");--> statement-breakpoint
CREATE INDEX "owner_merges_from_idx" ON "owner_merges" USING btree ("from_owner_id");--> statement-breakpoint
CREATE INDEX "owner_merges_into_idx" ON "owner_merges" USING btree ("into_owner_id","secret_valid_until");--> statement-breakpoint
ALTER TABLE "property_owners" ADD CONSTRAINT "property_owners_merged_into_id_property_owners_id_fk" FOREIGN KEY ("merged_into_id") REFERENCES "public"."property_owners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "property_owners_merged_into_idx" ON "property_owners" USING btree ("merged_into_id");