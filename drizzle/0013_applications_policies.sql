CREATE SEQUENCE "public"."policy_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"prospect_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	"status" text DEFAULT 'created' NOT NULL,
	"product_type" text,
	"product_version" text,
	"cadence" text,
	"quote" jsonb,
	"outcome" text,
	"submitted_at" timestamp with time zone,
	"step" text DEFAULT 'details' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cash_deposits" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_id" integer,
	"prospect_id" integer,
	"owner_id" integer NOT NULL,
	"unit_id" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_number" text NOT NULL,
	"application_id" integer,
	"prospect_id" integer,
	"owner_id" integer NOT NULL,
	"property_id" integer NOT NULL,
	"unit_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"product_type" text NOT NULL,
	"product_version" text,
	"coverage_amount_cents" integer NOT NULL,
	"coverage_start_date" date NOT NULL,
	"coverage_end_date" date NOT NULL,
	"premium_cents" integer NOT NULL,
	"cadence" text NOT NULL,
	"source_prospect_id" text,
	"pms_type" text,
	"pms_property_id" text,
	"pms_unit_id" text,
	"pms_resident_id" text,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_prospect_id_prospects_id_fk" FOREIGN KEY ("prospect_id") REFERENCES "public"."prospects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_deposits" ADD CONSTRAINT "cash_deposits_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_deposits" ADD CONSTRAINT "cash_deposits_prospect_id_prospects_id_fk" FOREIGN KEY ("prospect_id") REFERENCES "public"."prospects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_deposits" ADD CONSTRAINT "cash_deposits_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cash_deposits" ADD CONSTRAINT "cash_deposits_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_prospect_id_prospects_id_fk" FOREIGN KEY ("prospect_id") REFERENCES "public"."prospects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policies" ADD CONSTRAINT "policies_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "applications_open_per_prospect_key" ON "applications" USING btree ("prospect_id") WHERE "applications"."status" = 'created';--> statement-breakpoint
CREATE INDEX "applications_prospect_idx" ON "applications" USING btree ("prospect_id");--> statement-breakpoint
CREATE INDEX "applications_owner_idx" ON "applications" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cash_deposits_application_key" ON "cash_deposits" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "cash_deposits_prospect_idx" ON "cash_deposits" USING btree ("prospect_id");--> statement-breakpoint
CREATE INDEX "cash_deposits_owner_idx" ON "cash_deposits" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "cash_deposits_unit_idx" ON "cash_deposits" USING btree ("unit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "policies_policy_number_key" ON "policies" USING btree ("policy_number");--> statement-breakpoint
CREATE UNIQUE INDEX "policies_application_key" ON "policies" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "policies_prospect_idx" ON "policies" USING btree ("prospect_id");--> statement-breakpoint
CREATE INDEX "policies_owner_idx" ON "policies" USING btree ("owner_id","id");--> statement-breakpoint
CREATE INDEX "policies_property_idx" ON "policies" USING btree ("property_id");--> statement-breakpoint
CREATE INDEX "policies_unit_idx" ON "policies" USING btree ("unit_id");--> statement-breakpoint
ALTER TABLE "policy_documents" ADD CONSTRAINT "policy_documents_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;