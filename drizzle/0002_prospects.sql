CREATE TABLE "prospects" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"source_id" integer NOT NULL,
	"source" text NOT NULL,
	"source_prospect_id" text NOT NULL,
	"terms_accepted_at" timestamp with time zone NOT NULL,
	"email" text,
	"phone" text,
	"first_name" text,
	"last_name" text,
	"birthdate" text,
	"lease_start_date" text,
	"lease_end_date" text,
	"monthly_rent_cents" integer,
	"deposit_amount_cents" integer,
	"guarantor_coverage" boolean DEFAULT false NOT NULL,
	"screening_result" text,
	"employment_status" text,
	"yearly_income" double precision,
	"has_ssn" boolean,
	"ssn_encrypted" text,
	"education_level" text,
	"citizenship" text,
	"pms_type" text,
	"pms_property_id" text,
	"pms_unit_id" text,
	"pms_prospect_id" text,
	"property_id" integer,
	"unit_id" integer,
	"authorized_members" jsonb,
	"status" text DEFAULT 'incomplete' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"eligibility" jsonb,
	"effective_coverage_amount_cents" integer,
	"percent_savings" double precision,
	"application_submitted" boolean DEFAULT false NOT NULL,
	"latest_coverage" jsonb,
	"last_event_at" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_property_id_properties_id_fk" FOREIGN KEY ("property_id") REFERENCES "public"."properties"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prospects" ADD CONSTRAINT "prospects_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "prospects_owner_source_key" ON "prospects" USING btree ("owner_id","source","source_prospect_id");--> statement-breakpoint
CREATE INDEX "prospects_source_idx" ON "prospects" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "prospects_property_idx" ON "prospects" USING btree ("property_id");--> statement-breakpoint
CREATE INDEX "prospects_unit_idx" ON "prospects" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "prospects_owner_email_idx" ON "prospects" USING btree ("owner_id",lower("email"));