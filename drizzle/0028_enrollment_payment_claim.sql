ALTER TABLE "applications" ADD COLUMN "payment_key" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "payment_key_amount_cents" integer;