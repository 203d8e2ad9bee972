ALTER TABLE "applications" ADD COLUMN "applicant" jsonb;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "disclosures_accepted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "blocked_reason" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "payment_charge_id" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "payment_amount_cents" integer;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "payment_last4" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "paid_at" timestamp with time zone;