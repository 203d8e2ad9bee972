CREATE TABLE "payment_customers" (
	"processor" text NOT NULL,
	"renter_email" text NOT NULL,
	"customer_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_customers_processor_renter_email_pk" PRIMARY KEY("processor","renter_email")
);
--> statement-breakpoint
ALTER TABLE "payment_charges" ALTER COLUMN "last4" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_charges" ALTER COLUMN "brand" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "intent_id" text;--> statement-breakpoint
ALTER TABLE "payment_charges" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_methods" ADD COLUMN "customer_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_charges_intent_id" ON "payment_charges" USING btree ("intent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_methods_processor_token" ON "payment_methods" USING btree ("processor","token");