ALTER TABLE "api_clients" ADD COLUMN "secret_version" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "secret_rotated_at" timestamp with time zone;