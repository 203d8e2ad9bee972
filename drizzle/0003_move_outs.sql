CREATE TABLE "move_outs" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_id" integer NOT NULL,
	"external_id" text NOT NULL,
	"move_out_date" text NOT NULL,
	"property" jsonb NOT NULL,
	"unit" jsonb,
	"residents" jsonb NOT NULL,
	"refund_amount_cents" integer,
	"deposit_amount_cents" integer,
	"lease_start" text,
	"lease_end" text,
	"status" text DEFAULT 'initiated' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "move_outs" ADD CONSTRAINT "move_outs_owner_id_property_owners_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."property_owners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "move_outs_owner_external_key" ON "move_outs" USING btree ("owner_id","external_id");--> statement-breakpoint
CREATE INDEX "move_outs_owner_idx" ON "move_outs" USING btree ("owner_id");