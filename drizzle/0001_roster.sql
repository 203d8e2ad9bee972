CREATE TABLE "address_disagreements" (
	"id" serial PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"source" text NOT NULL,
	"stored_line_one" text NOT NULL,
	"proposed_line_one" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bank_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"external_system_id" text NOT NULL,
	"display_name" text NOT NULL,
	"routing_number" text NOT NULL,
	"account_number_encrypted" text NOT NULL,
	"account_number_last4" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "properties" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"external_system_id" text,
	"building_name" text NOT NULL,
	"name_key" text NOT NULL,
	"street_key" text NOT NULL,
	"address_line_one" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip" text NOT NULL,
	"type" text DEFAULT 'multifamily' NOT NULL,
	"policy_holder_name" text,
	"pms_type" text,
	"pms_property_id" text,
	"default_coverage" jsonb,
	"bank_account_id" integer,
	"active" boolean DEFAULT true NOT NULL,
	"guarantee_enabled" boolean DEFAULT false NOT NULL,
	"guarantee_coverage" jsonb,
	"address_locked_at" timestamp with time zone,
	"address_locked_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "units" (
	"id" serial PRIMARY KEY NOT NULL,
	"property_id" integer NOT NULL,
	"external_system_id" text,
	"name" text NOT NULL,
	"name_key" text NOT NULL,
	"address" jsonb,
	"pms_unit_id" text,
	"default_coverage" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "address_disagreements" ADD CONSTRAINT "address_disagreements_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bank_accounts" ADD CONSTRAINT "bank_accounts_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "properties" ADD CONSTRAINT "properties_bank_account_id_bank_accounts_id_fk" FOREIGN KEY ("bank_account_id") REFERENCES "public"."bank_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "units" ADD CONSTRAINT "units_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "address_disagreements_property_idx" ON "address_disagreements" USING btree ("property_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_owner_external_key" ON "bank_accounts" USING btree ("owner_id","external_system_id");--> statement-breakpoint
CREATE UNIQUE INDEX "bank_accounts_one_default_per_owner" ON "bank_accounts" USING btree ("owner_id") WHERE "bank_accounts"."is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "properties_owner_external_key" ON "properties" USING btree ("owner_id","external_system_id") WHERE "properties"."external_system_id" is not null;--> statement-breakpoint
CREATE INDEX "properties_owner_pms_idx" ON "properties" USING btree ("owner_id","pms_type","pms_property_id");--> statement-breakpoint
CREATE INDEX "properties_owner_match_idx" ON "properties" USING btree ("owner_id","name_key","street_key","zip");--> statement-breakpoint
CREATE INDEX "properties_bank_account_idx" ON "properties" USING btree ("bank_account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "units_property_external_key" ON "units" USING btree ("property_id","external_system_id") WHERE "units"."external_system_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "units_property_name_key" ON "units" USING btree ("property_id","name_key");--> statement-breakpoint
CREATE INDEX "units_property_pms_idx" ON "units" USING btree ("property_id","pms_unit_id");