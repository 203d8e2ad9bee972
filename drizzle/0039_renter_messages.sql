CREATE TABLE "renter_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"data" jsonb NOT NULL,
	"html" text,
	"text" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_answer" text,
	"last_answer_code" integer,
	"lease_until" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"give_up_at" timestamp with time zone NOT NULL,
	"message_id" text NOT NULL,
	"owner_id" integer,
	"policy_id" integer,
	"policy_number" text,
	"dedupe_key" text,
	"resent_from_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "renter_messages" ADD CONSTRAINT "renter_messages_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renter_messages" ADD CONSTRAINT "renter_messages_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renter_messages" ADD CONSTRAINT "renter_messages_resent_from_id_renter_messages_id_fk" FOREIGN KEY ("resent_from_id") REFERENCES "public"."renter_messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "renter_messages_dedupe_key" ON "renter_messages" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "renter_messages_to_idx" ON "renter_messages" USING btree (lower("to_address"),"id");--> statement-breakpoint
CREATE INDEX "renter_messages_policy_number_idx" ON "renter_messages" USING btree ("policy_number","id");--> statement-breakpoint
CREATE INDEX "renter_messages_kind_idx" ON "renter_messages" USING btree ("kind","id");--> statement-breakpoint
CREATE INDEX "renter_messages_status_idx" ON "renter_messages" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "renter_messages_owner_idx" ON "renter_messages" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "renter_messages_policy_idx" ON "renter_messages" USING btree ("policy_id");--> statement-breakpoint
CREATE INDEX "renter_messages_resent_from_idx" ON "renter_messages" USING btree ("resent_from_id");