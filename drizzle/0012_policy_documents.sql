CREATE TABLE "policy_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"policy_id" integer NOT NULL,
	"key" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"content" "bytea" NOT NULL,
	"byte_size" integer NOT NULL,
	"sha256" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "policy_documents_key_key" ON "policy_documents" USING btree ("key");--> statement-breakpoint
CREATE INDEX "policy_documents_policy_id_idx" ON "policy_documents" USING btree ("policy_id","id");