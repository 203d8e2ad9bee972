CREATE TABLE "api_clients" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"gateway" text NOT NULL,
	"scopes" text[] NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_encrypted" text NOT NULL,
	"require_signature" boolean DEFAULT false NOT NULL,
	"provider_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "client_owner_grants" (
	"client_id" text NOT NULL,
	"owner_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_owner_grants_client_id_owner_id_pk" PRIMARY KEY("client_id","owner_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "frame_origins" (
	"id" serial PRIMARY KEY NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "owner_building_grants" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"client_id" text NOT NULL,
	"pms_type" text NOT NULL,
	"pms_property_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "property_owners" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"external_org_id" text NOT NULL,
	"name" text NOT NULL,
	"managed" boolean DEFAULT false NOT NULL,
	"purchase_flow_enabled" boolean DEFAULT false NOT NULL,
	"max_coverage_amount_cents" integer,
	"embedded_frame_ancestors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"guarantor_coverage_capable" boolean DEFAULT false NOT NULL,
	"signing_secret_encrypted" text NOT NULL,
	"previous_signing_secret_encrypted" text,
	"previous_signing_secret_expires_at" timestamp with time zone,
	"created_by_client_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"client_id" text NOT NULL,
	"flow" text DEFAULT 'embedded' NOT NULL,
	"optional_ingest_fields" boolean DEFAULT false NOT NULL,
	"redirect_domains" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "provider_owners" (
	"provider_id" integer NOT NULL,
	"owner_id" integer NOT NULL,
	CONSTRAINT "provider_owners_provider_id_owner_id_pk" PRIMARY KEY("provider_id","owner_id")
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"client_id" text NOT NULL,
	"signing_secret_encrypted" text NOT NULL,
	"previous_signing_secret_encrypted" text,
	"previous_signing_secret_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_owner_grants" ADD CONSTRAINT "client_owner_grants_client_id_api_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."api_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "client_owner_grants" ADD CONSTRAINT "client_owner_grants_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "owner_building_grants" ADD CONSTRAINT "owner_building_grants_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_owners" ADD CONSTRAINT "provider_owners_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_owners" ADD CONSTRAINT "provider_owners_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_owner_grants_owner_idx" ON "client_owner_grants" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "frame_origins_origin_key" ON "frame_origins" USING btree ("origin");--> statement-breakpoint
CREATE UNIQUE INDEX "owner_building_grants_key" ON "owner_building_grants" USING btree ("owner_id","client_id","pms_type","pms_property_id");--> statement-breakpoint
CREATE INDEX "owner_building_grants_client_idx" ON "owner_building_grants" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "property_owners_slug_key" ON "property_owners" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "property_owners_external_org_id_key" ON "property_owners" USING btree ("external_org_id");--> statement-breakpoint
CREATE INDEX "property_owners_created_by_idx" ON "property_owners" USING btree ("created_by_client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sources_code_key" ON "sources" USING btree ("code");--> statement-breakpoint
CREATE INDEX "sources_client_idx" ON "sources" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "provider_owners_owner_idx" ON "provider_owners" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "providers_code_key" ON "providers" USING btree ("code");--> statement-breakpoint
CREATE INDEX "providers_client_idx" ON "providers" USING btree ("client_id");