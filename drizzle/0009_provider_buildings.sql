CREATE TABLE "provider_buildings" (
	"provider_id" integer NOT NULL,
	"property_id" integer NOT NULL,
	CONSTRAINT "provider_buildings_provider_id_property_id_pk" PRIMARY KEY("provider_id","property_id")
);
--> statement-breakpoint
ALTER TABLE "provider_buildings" ADD CONSTRAINT "provider_buildings_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_buildings" ADD CONSTRAINT "provider_buildings_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "provider_buildings_property_idx" ON "provider_buildings" USING btree ("property_id");