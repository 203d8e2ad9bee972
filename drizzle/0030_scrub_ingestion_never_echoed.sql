-- docs/decisions.md, Hardening: ingestion: an event processed before never-echoed values were sealed
-- keeps none of them (the prospect holds what was applied). Pending ones are scrubbed by their job.
UPDATE "ingestion_events"
SET "body" = ("body" - ARRAY['social_security_number', 'education_level', 'citizenship', 'terms_accepted_at'])
  || CASE WHEN jsonb_typeof("body" -> 'data') = 'object'
    THEN jsonb_build_object('data', ("body" -> 'data') - ARRAY['social_security_number', 'education_level', 'citizenship', 'terms_accepted_at'])
    ELSE '{}'::jsonb END
WHERE "status" <> 'pending'
  AND jsonb_typeof("body") = 'object'
  AND (
    "body" ?| ARRAY['social_security_number', 'education_level', 'citizenship', 'terms_accepted_at']
    OR (jsonb_typeof("body" -> 'data') = 'object' AND ("body" -> 'data') ?| ARRAY['social_security_number', 'education_level', 'citizenship', 'terms_accepted_at'])
  );
