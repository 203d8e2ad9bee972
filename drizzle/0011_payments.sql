CREATE TABLE "payment_charges" (
	"id" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'usd' NOT NULL,
	"status" text NOT NULL,
	"decline_code" text,
	"last4" text NOT NULL,
	"brand" text NOT NULL,
	"method_id" text,
	"subject" text,
	"description" text NOT NULL,
	"processor" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_fail_next" (
	"subject" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_methods" (
	"id" text PRIMARY KEY NOT NULL,
	"processor" text NOT NULL,
	"last4" text NOT NULL,
	"brand" text NOT NULL,
	"exp_month" integer NOT NULL,
	"exp_year" integer NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_charges" ADD CONSTRAINT "payment_charges_method_id_payment_methods_id_fk" FOREIGN KEY ("method_id") REFERENCES "public"."payment_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_charges_idempotency_key" ON "payment_charges" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "payment_charges_method_idx" ON "payment_charges" USING btree ("method_id");--> statement-breakpoint
CREATE INDEX "payment_charges_subject_idx" ON "payment_charges" USING btree ("subject");