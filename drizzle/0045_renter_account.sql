CREATE TABLE "account_sessions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "account_sign_in_links" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "account_sign_in_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"token_hash" text NOT NULL,
	"email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing_method_updates" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_id" integer NOT NULL,
	"method_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "console_sign_in_failures" ADD COLUMN "scope" text DEFAULT 'console' NOT NULL;--> statement-breakpoint
ALTER TABLE "billing_method_updates" ADD CONSTRAINT "billing_method_updates_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_method_updates" ADD CONSTRAINT "billing_method_updates_method_id_payment_methods_id_fk" FOREIGN KEY ("method_id") REFERENCES "public"."payment_methods"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "account_sessions_token_key" ON "account_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "account_sessions_expires_idx" ON "account_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "account_sign_in_links_token_key" ON "account_sign_in_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "account_sign_in_links_expires_idx" ON "account_sign_in_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "billing_method_updates_policy_idx" ON "billing_method_updates" USING btree ("policy_id","id");--> statement-breakpoint
CREATE INDEX "billing_method_updates_method_idx" ON "billing_method_updates" USING btree ("method_id");