CREATE TABLE "policy_revisions" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_id" integer NOT NULL,
	"actor" text NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"note" text,
	"revised_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "policy_revisions" ADD CONSTRAINT "policy_revisions_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "policy_revisions_policy_idx" ON "policy_revisions" USING btree ("policy_id","id");