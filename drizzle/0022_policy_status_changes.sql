CREATE TABLE "policy_status_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_id" integer NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"reason" text,
	"actor" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "policy_status_changes" ADD CONSTRAINT "policy_status_changes_policy_id_policies_id_fk" FOREIGN KEY ("policy_id") REFERENCES "public"."policies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "policy_status_changes_policy_idx" ON "policy_status_changes" USING btree ("policy_id","id");--> statement-breakpoint
INSERT INTO "policy_status_changes" ("policy_id", "from_status", "to_status", "actor", "changed_at") SELECT "id", NULL, "status", 'system:backfill', "issued_at" FROM "policies";
