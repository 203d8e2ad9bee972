CREATE TABLE "underwriting_rules" (
	"owner_id" integer PRIMARY KEY NOT NULL,
	"rules" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "underwriting_rules" ADD CONSTRAINT "underwriting_rules_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;