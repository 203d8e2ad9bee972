ALTER TABLE "move_outs" ADD COLUMN "client_id" text;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "client_id" text;--> statement-breakpoint
-- Hand-written backfill (drizzle-kit generates no data changes). Records made before this migration
-- are given the client that made them where that is certain: a provider's endpoints belong to the
-- provider's client; an owner's endpoints and move-outs to the owner's only granted client. Where
-- several clients hold the owner nobody can tell, the column stays null: no partner reaches those
-- records through the API (none is shown to a partner that may not have made it), and such
-- endpoints still receive the events that are about no client's record.
UPDATE "webhook_endpoints" AS e SET "client_id" = p."client_id" FROM "providers" AS p WHERE e."provider_id" = p."id" AND e."client_id" IS NULL;
--> statement-breakpoint
WITH "sole" AS (SELECT "owner_id", min("client_id") AS "client_id" FROM "client_owner_grants" GROUP BY "owner_id" HAVING count(*) = 1)
UPDATE "webhook_endpoints" AS e SET "client_id" = s."client_id" FROM "sole" AS s WHERE e."owner_id" = s."owner_id" AND e."client_id" IS NULL;
--> statement-breakpoint
WITH "sole" AS (SELECT "owner_id", min("client_id") AS "client_id" FROM "client_owner_grants" GROUP BY "owner_id" HAVING count(*) = 1)
UPDATE "move_outs" AS m SET "client_id" = s."client_id" FROM "sole" AS s WHERE m."owner_id" = s."owner_id" AND m."client_id" IS NULL;
