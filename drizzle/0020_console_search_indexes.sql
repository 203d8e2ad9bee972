CREATE INDEX "prospects_email_idx" ON "prospects" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "prospects_source_prospect_id_idx" ON "prospects" USING btree ("source_prospect_id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_started_idx" ON "webhook_attempts" USING btree ("started_at");