import type postgres from "postgres";
import { encryptSecret } from "../../src/server/secrets";
import type { completeProspectFields } from "../../src/test/samples";

export type FloorOwner = { id: number; slug: string };
export type FloorSource = { id: number; code: string };
type BenchProspect = ReturnType<typeof completeProspectFields>;

/**
 * The floor the prospect upsert is measured against (docs/decisions.md, Performance and caches): the same rows the service's
 * upsert writes for a complete prospect (src/features/prospects/service.ts upsertProspect and
 * src/features/webhooks/emit.ts emitEvent), hand-written as ONE statement, so one round trip and no
 * explicit transaction:
 * - the prospect row (insert, or update of the supplied columns with a version bump), its building
 *   and unit resolved from the nested references, the SSN sealed as the service seals it, status
 *   `processing` and any previous decision cleared;
 * - its eligibility job (`prospect__check_eligibility`, keyed per prospect, replacing a pending one),
 *   which the service's worker runs as it runs the service's own;
 * - on creation, the `prospect.created` event with its exact body when someone is subscribed, one
 *   delivery per active endpoint subscribed for the owner (its own and covering providers'), and the
 *   delivery jobs (one per 100 deliveries).
 * INSERT … ON CONFLICT makes the advisory lock the service takes unnecessary here. Task names and
 * payloads are written out by hand on purpose: this is what a minimal implementation would send.
 */
export async function floorUpsert(sql: postgres.Sql, owner: FloorOwner, source: FloorSource, p: BenchProspect): Promise<void> {
  const ssn = encryptSecret(p.social_security_number.replace(/-/g, ""));
  // spec Events, Body; spec Prospect payload: on prospect.created the only field is `id`.
  const body = JSON.stringify({
    event: "prospect.created",
    property_owner_slug: owner.slug,
    data: { third_party_prospect: { id: p.source_prospect_id } },
  });
  await sql`
    with location as (
      select b.id as property_id,
        (select u.id from units u where u.property_id = b.id and u.external_system_id = ${p.unit.external_system_id}) as unit_id
      from (values (1)) as one (x)
      left join properties b on b.owner_id = ${owner.id} and b.external_system_id = ${p.property.external_system_id}
    ), prospect as (
      insert into prospects as x (owner_id, source_id, source, source_prospect_id, terms_accepted_at, email, phone, first_name, last_name,
        birthdate, lease_start_date, lease_end_date, monthly_rent_cents, deposit_amount_cents, guarantor_coverage, screening_result,
        employment_status, yearly_income, has_ssn, ssn_encrypted, education_level, citizenship, property_id, unit_id, status)
      select ${owner.id}, ${source.id}, ${source.code}, ${p.source_prospect_id}, ${p.terms_accepted_at}::timestamptz, ${p.email}, ${p.phone},
        ${p.first_name}, ${p.last_name}, ${p.birthdate}, ${p.lease_start_date}, ${p.lease_end_date}, ${p.monthly_rent_cents},
        ${p.deposit_amount_cents}, false, ${p.screening_result}, ${p.employment_status}, ${p.yearly_income}, ${p.has_ssn}, ${ssn},
        ${p.education_level}, ${p.citizenship}, location.property_id, location.unit_id, 'processing'
      from location
      on conflict (owner_id, source, source_prospect_id) do update set
        terms_accepted_at = excluded.terms_accepted_at, email = excluded.email, phone = excluded.phone, first_name = excluded.first_name,
        last_name = excluded.last_name, birthdate = excluded.birthdate, lease_start_date = excluded.lease_start_date,
        lease_end_date = excluded.lease_end_date, monthly_rent_cents = excluded.monthly_rent_cents,
        deposit_amount_cents = excluded.deposit_amount_cents, screening_result = excluded.screening_result,
        employment_status = excluded.employment_status, yearly_income = excluded.yearly_income, has_ssn = excluded.has_ssn,
        ssn_encrypted = excluded.ssn_encrypted, education_level = excluded.education_level, citizenship = excluded.citizenship,
        property_id = excluded.property_id, unit_id = excluded.unit_id, status = 'processing', eligibility = null,
        effective_coverage_amount_cents = null, version = x.version + 1, updated_at = now()
      returning x.id, x.version, (x.xmax = 0) as created
    ), eligibility_job as (
      select graphile_worker.add_job('prospect__check_eligibility', json_build_object('prospectId', id, 'version', version),
        job_key => 'prospect-eligibility:' || id, job_key_mode => 'replace') as job
      from prospect
    ), targets as (
      select e.id from webhook_endpoints e
      where e.status = 'active' and e.deleted_at is null and 'prospect.created' = any(e.events)
        and (
          e.owner_id = ${owner.id}
          or e.provider_id in (
            select v.id from providers v
            where exists (select 1 from provider_owners po where po.provider_id = v.id and po.owner_id = ${owner.id})
               or (not exists (select 1 from provider_owners po where po.provider_id = v.id)
                   and exists (select 1 from client_owner_grants g where g.client_id = v.client_id and g.owner_id = ${owner.id}))
          )
        )
    ), event as (
      insert into webhook_events (owner_id, event, body)
      select ${owner.id}, 'prospect.created', ${body} from prospect where prospect.created and exists (select 1 from targets)
      returning id
    ), deliveries as (
      insert into webhook_deliveries (id, event_id, endpoint_id, owner_id, event)
      select 'wd_' || replace(gen_random_uuid()::text, '-', ''), event.id, targets.id, ${owner.id}, 'prospect.created' from event, targets
      returning id
    ), delivery_jobs as (
      select graphile_worker.add_jobs(array(
        select row('webhook_delivery__attempt', json_build_object('deliveryIds', json_agg(id order by id)), null, null, null, null, null, null)::graphile_worker.job_spec
        from (select id, (row_number() over (order by id) - 1) / 100 as chunk from deliveries) batch
        group by chunk
      )) as jobs
      where exists (select 1 from deliveries)
    )
    -- Plain SELECT CTEs run only when read: the jobs are read here so that they are added.
    select (select count(*) from eligibility_job) as eligibility_jobs, (select count(*) from delivery_jobs) as delivery_jobs`;
}
