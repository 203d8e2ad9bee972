-- docs/decisions.md "Hardening: the CLI, merged links, demo framing": the staging demo's local frame
-- origins belong to the demo owner, not to every owner. Earlier seeds put `http://localhost:<port>` and `http://127.0.0.1:<port>`
-- in frame_origins (operator-wide) and `http://127.0.0.1:<port>` in the demo owner's
-- embedded_frame_ancestors (only the seed can store a plain-HTTP origin there: the Partner API takes
-- HTTPS only). That owner entry names the seeded pair: the owner gets `http://localhost:<port>` too,
-- and the pair leaves frame_origins. Other operator origins, loopback ones included, stay.
UPDATE property_owners o
SET embedded_frame_ancestors = o.embedded_frame_ancestors || missing.origins
FROM (
  SELECT owner.id, jsonb_agg(DISTINCT 'http://localhost:' || substring(entry.value from '([0-9]+)$')) AS origins
  FROM property_owners owner, jsonb_array_elements_text(owner.embedded_frame_ancestors) AS entry(value)
  WHERE entry.value ~ '^http://127\.0\.0\.1:[0-9]+$'
    AND NOT owner.embedded_frame_ancestors @> jsonb_build_array('http://localhost:' || substring(entry.value from '([0-9]+)$'))
  GROUP BY owner.id
) missing
WHERE o.id = missing.id;
--> statement-breakpoint
DELETE FROM frame_origins f
WHERE f.origin ~ '^http://(localhost|127\.0\.0\.1):[0-9]+$'
  AND EXISTS (
    SELECT 1 FROM property_owners o
    WHERE o.embedded_frame_ancestors @> jsonb_build_array('http://127.0.0.1:' || substring(f.origin from '([0-9]+)$'))
  );
