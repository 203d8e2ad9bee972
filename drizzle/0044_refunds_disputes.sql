CREATE TABLE "payment_disputes" (
	"id" serial PRIMARY KEY NOT NULL,
	"processor" text NOT NULL,
	"processor_dispute_id" text NOT NULL,
	"processor_charge_id" text,
	"intent_id" text,
	"payment_charge_id" text,
	"policy_id" integer,
	"amount_cents" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policy_refunds" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_id" integer NOT NULL,
	"cancellation_id" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"payment_charge_id" text NOT NULL,
	"processor" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"processor_refund_id" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_disputes" ADD CONSTRAINT "payment_disputes_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_refunds" ADD CONSTRAINT "policy_refunds_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "policy_refunds" ADD CONSTRAINT "policy_refunds_cancellation_id_policy_status_changes_id_fk" FOREIGN KEY ("cancellation_id") REFERENCES "public"."policy_status_changes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_disputes_processor_dispute_key" ON "payment_disputes" USING btree ("processor","processor_dispute_id");--> statement-breakpoint
CREATE INDEX "payment_disputes_policy_idx" ON "payment_disputes" USING btree ("policy_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_refunds_idempotency_key" ON "policy_refunds" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "policy_refunds_processor_refund_id" ON "policy_refunds" USING btree ("processor_refund_id");--> statement-breakpoint
CREATE INDEX "policy_refunds_policy_idx" ON "policy_refunds" USING btree ("policy_id","id");--> statement-breakpoint
CREATE INDEX "policy_refunds_cancellation_idx" ON "policy_refunds" USING btree ("cancellation_id");--> statement-breakpoint
CREATE INDEX "policy_refunds_charge_idx" ON "policy_refunds" USING btree ("payment_charge_id");