CREATE TABLE "billing_charges" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_id" integer NOT NULL,
	"kind" text NOT NULL,
	"period_index" integer,
	"period_start" date,
	"amount_cents" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"processor_charge_id" text,
	"decline_code" text,
	"delinquency_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "delinquencies" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_id" integer NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"amount_cents" integer NOT NULL,
	"settled_cents" integer,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_charges" ADD CONSTRAINT "billing_charges_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_charges" ADD CONSTRAINT "billing_charges_delinquency_id_delinquencies_id_fk" FOREIGN KEY ("delinquency_id") REFERENCES "public"."delinquencies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "delinquencies" ADD CONSTRAINT "delinquencies_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "billing_charges_policy_period_key" ON "billing_charges" USING btree ("policy_id","period_index") WHERE "billing_charges"."kind" = 'period';--> statement-breakpoint
CREATE INDEX "billing_charges_policy_idx" ON "billing_charges" USING btree ("policy_id","id");--> statement-breakpoint
CREATE INDEX "billing_charges_pending_idx" ON "billing_charges" USING btree ("id") WHERE "billing_charges"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "delinquencies_one_active_per_policy" ON "delinquencies" USING btree ("policy_id") WHERE "delinquencies"."status" = 'active';--> statement-breakpoint
CREATE INDEX "delinquencies_policy_idx" ON "delinquencies" USING btree ("policy_id","id");--> statement-breakpoint
CREATE INDEX "delinquencies_status_idx" ON "delinquencies" USING btree ("status","id");