CREATE TABLE "residents" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	"unit_id" integer NOT NULL,
	"policy_id" integer,
	"cash_deposit_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "renter_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "renter_users_email_lower_check" CHECK ("renter_users"."email" = lower(btrim("renter_users"."email")))
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "user_id" integer;--> statement-breakpoint
ALTER TABLE "residents" ADD CONSTRAINT "residents_user_id_renter_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."renter_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residents" ADD CONSTRAINT "residents_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residents" ADD CONSTRAINT "residents_unit_id_units_id_fk" FOREIGN KEY ("unit_id") REFERENCES "public"."units"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residents" ADD CONSTRAINT "residents_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "residents" ADD CONSTRAINT "residents_cash_deposit_id_cash_deposits_id_fk" FOREIGN KEY ("cash_deposit_id") REFERENCES "public"."cash_deposits"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "residents_user_unit_key" ON "residents" USING btree ("user_id","unit_id");--> statement-breakpoint
CREATE INDEX "residents_owner_idx" ON "residents" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "residents_unit_idx" ON "residents" USING btree ("unit_id");--> statement-breakpoint
CREATE INDEX "residents_policy_idx" ON "residents" USING btree ("policy_id");--> statement-breakpoint
CREATE INDEX "residents_cash_deposit_idx" ON "residents" USING btree ("cash_deposit_id");--> statement-breakpoint
CREATE UNIQUE INDEX "renter_users_email_key" ON "renter_users" USING btree ("email");--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_user_id_renter_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."renter_users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applications_user_idx" ON "applications" USING btree ("user_id");