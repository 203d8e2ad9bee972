CREATE TABLE "address_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"source" text NOT NULL,
	"line_one" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"actor" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "address_disagreements" ADD COLUMN "proposed_city" text;--> statement-breakpoint
ALTER TABLE "address_disagreements" ADD COLUMN "proposed_state" text;--> statement-breakpoint
ALTER TABLE "address_disagreements" ADD COLUMN "proposed_zip" text;--> statement-breakpoint
-- Disagreements recorded before this migration kept only the line: the rest is the building's own.
UPDATE "address_disagreements" AS d SET "proposed_city" = p."city", "proposed_state" = p."state", "proposed_zip" = p."zip" FROM "properties" AS p WHERE p."id" = d."property_id";--> statement-breakpoint
ALTER TABLE "address_disagreements" ALTER COLUMN "proposed_city" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "address_disagreements" ALTER COLUMN "proposed_state" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "address_disagreements" ALTER COLUMN "proposed_zip" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "address_history" ADD CONSTRAINT "address_history_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "address_history_property_idx" ON "address_history" USING btree ("property_id","id");