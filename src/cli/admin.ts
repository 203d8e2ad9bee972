import { recordAudit } from "../features/audit/audit";
import { createClientByStaff } from "../features/auth/console/clients";
import { grantOwnerByStaff } from "../features/auth/console/grants";
import { type Gateway, type Scope, scopesOfGateway } from "../features/auth/scopes";
import { audienceOf } from "../features/auth/tokens";
import { createStaffUser } from "../features/console/staff-users";
import { addFrameOriginByStaff } from "../features/enrollment/console/frame-origins";
import { addBuildingGrant } from "../features/owners/console/building-grants";
import { revealOwnerSecret, rotateOwnerSecretByStaff } from "../features/owners/console/signing-secret";
import { mergeOwners } from "../features/owners/merge/merge";
import { listOwners } from "../features/owners/merge/owner-list";
import { planMerge } from "../features/owners/merge/plan";
import { createManagedOwnerAs, findOwnerBySlug } from "../features/owners/service";
import { resolveAsOf } from "../features/policies/lifecycle/as-of";
import { sweepDuePolicies } from "../features/policies/lifecycle/sweep";
import { listPoliciesOfOwner, policyListEntry } from "../features/policies/list";
import { refundsOfPolicy } from "../features/policies/refunds/refunds";
import { cancelPolicy } from "../features/policies/revisions/cancel";
import { policyIdByNumber } from "../features/policies/revisions/locked-policy";
import { revisePolicy } from "../features/policies/revisions/revise";
import { createSourceByStaff } from "../features/prospects/console/sources";
import { configuredWindows, countExpired, pruneExpired } from "../features/retention/prune";
import { correctAddress } from "../features/roster/console/actions";
import { findBuildingId, showBuilding } from "../features/roster/console/buildings";
import { setEndpointHeadersAsStaff } from "../features/webhooks/console/endpoints";
import { createProviderByStaff } from "../features/webhooks/console/providers";
import { countFailedDeliveries, runBulkRetry } from "../features/webhooks/console/retry";
import { startBulkRetry } from "../features/webhooks/console/webhook_delivery__bulk_retry";
import { closeDb, type Db, databaseUrl, getDb } from "../server/db/client";
import { migrateDatabase } from "../server/db/migrate";
import { errors, fieldMessagesOf } from "../server/errors";
import { toAppError } from "../server/to-app-error";
import { BILLING_COMMANDS, BILLING_OPTIONS } from "./admin-billing";
import { MASTER_KEY_COMMANDS } from "./admin-master-key";
import { PAYMENT_COMMANDS } from "./admin-payments";
import { cliActor, cliUser, type Flags, parseFlags, USAGE_EXIT_CODE, UsageError } from "./usage";

/**
 * Operator CLI (decisions §4): `npm run admin -- <command> [flags]` prints one JSON object on stdout;
 * on failure a message on stderr and a non-zero exit code (2 for a usage error, decisions §15). A
 * command that changes something writes the console's audit row for that change, as `cli:<user>`,
 * through the console's own audited function (docs/decisions.md "Hardening: the CLI, merged links,
 * demo framing").
 */
type Command = { usage: string; run: (flags: Flags) => Promise<unknown> };

const str = (flags: Flags, name: string): string => {
  const value = flags[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
};
const opt = (flags: Flags, name: string): string | undefined => (typeof flags[name] === "string" ? (flags[name] as string) : undefined);
const list = (value: string | undefined): string[] | undefined =>
  value
    ?.split(",")
    .map((item) => item.trim())
    .filter(Boolean);

const repeated = (flags: Flags, name: string): string[] => (flags[name] as string[] | undefined) ?? [];
/** "a:b:c" → ["a", "b:c"]; no separator → [text, undefined]. */
const splitOnce = (text: string, separator: string): [string, string | undefined] => {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)];
};

/** The owner a slug names, a merged duplicate's slug naming its survivor (decisions §15). */
async function ownerNamed(db: Db, slug: string) {
  const owner = await findOwnerBySlug(db, slug);
  if (!owner) throw errors.notFound(`No owner ${slug}`);
  return owner;
}

const COMMANDS: Record<string, Command> = {
  "client create": {
    usage: "--name N [--gateway partner|ingestion] [--partner-client-id ID] [--provider CODE] [--scopes s1,s2] [--require-signature]",
    run: async (flags) => {
      const gateway = (opt(flags, "gateway") ?? "partner") as Gateway;
      if (gateway !== "partner" && gateway !== "ingestion") throw new UsageError("--gateway must be partner or ingestion");
      const scopes = list(opt(flags, "scopes")) as Scope[] | undefined;
      const unknown = (scopes ?? []).filter((scope) => !scopesOfGateway(gateway).includes(scope));
      if (unknown.length) throw new UsageError(`Unknown ${gateway} scopes: ${unknown.join(", ")}`);
      // decisions §15 Ingestion: an ingestion client's events name only its partner's sources (or its own).
      const partnerClientId = opt(flags, "partner-client-id");
      if (partnerClientId !== undefined && gateway !== "ingestion") throw new UsageError("--partner-client-id is for --gateway ingestion");
      const { client, client_secret } = await createClientByStaff(await getDb(), cliActor(), {
        name: str(flags, "name"),
        gateway,
        scopes: scopes as Parameters<typeof createClientByStaff>[2]["scopes"],
        require_signature: flags["require-signature"] === true,
        provider_code: opt(flags, "provider"),
        partner_client_id: partnerClientId,
      });
      return { client_id: client.client_id, client_secret, audience: audienceOf(gateway), scopes: client.scopes };
    },
  },
  "client grant": {
    usage: "--client-id ID --owner SLUG",
    run: async (flags) => {
      const db = await getDb();
      const owner = await ownerNamed(db, str(flags, "owner"));
      const granted = await grantOwnerByStaff(db, cliActor(), { client_id: str(flags, "client-id"), owner_slug: owner.slug });
      return { client_id: granted.client_id, owner_slug: granted.owner_slug };
    },
  },
  "owner create-managed": {
    usage: "--name N --external-org-id X",
    run: async (flags) => {
      const owner = await createManagedOwnerAs(await getDb(), cliActor(), { name: str(flags, "name"), externalOrgId: str(flags, "external-org-id") });
      return { owner_slug: owner.slug };
    },
  },
  "owner grant-building": {
    usage: "--owner SLUG --client-id ID --pms-type pms_one|pms_two --pms-property-id P",
    run: async (flags) => {
      const pmsType = str(flags, "pms-type");
      if (pmsType !== "pms_one" && pmsType !== "pms_two") throw new UsageError("--pms-type must be pms_one or pms_two");
      const db = await getDb();
      const owner = await ownerNamed(db, str(flags, "owner"));
      const { grant } = await addBuildingGrant(db, cliActor(), {
        owner_slug: owner.slug,
        client_id: str(flags, "client-id"),
        pms_type: pmsType,
        pms_property_id: str(flags, "pms-property-id"),
      });
      return { owner_slug: grant.owner_slug, client_id: grant.client_id, pms_type: grant.pms_type, pms_property_id: grant.pms_property_id };
    },
  },
  "owner secret": {
    usage: "--owner SLUG",
    run: async (flags) => {
      const db = await getDb();
      const owner = await ownerNamed(db, str(flags, "owner"));
      return { signing_secret: (await revealOwnerSecret(db, cliActor(), owner.slug)).signing_secret };
    },
  },
  "owner rotate-secret": {
    usage: "--owner SLUG",
    run: async (flags) => {
      const db = await getDb();
      const owner = await ownerNamed(db, str(flags, "owner"));
      const rotated = await rotateOwnerSecretByStaff(db, cliActor(), owner.slug);
      return { signing_secret: rotated.signing_secret, previous_secret_valid_until: rotated.previous_valid_until };
    },
  },
  "owner merge": {
    usage: "--from SLUG --into SLUG [--dry-run]",
    run: async (flags) => {
      const db = await getDb();
      const pair = { from: str(flags, "from"), into: str(flags, "into") };
      if (flags["dry-run"] === true) return { plan: await planMerge(db, pair.from, pair.into) };
      return { merge: await mergeOwners(db, cliActor(), pair) };
    },
  },
  "owner list": {
    usage: "",
    run: async () => {
      return { owners: await listOwners(await getDb()) };
    },
  },
  "policy list": {
    usage: "--owner SLUG",
    run: async (flags) => {
      const db = await getDb();
      const owner = await findOwnerBySlug(db, str(flags, "owner"));
      if (!owner) throw errors.notFound(`No owner ${flags.owner}`);
      return listPoliciesOfOwner(db, owner.id);
    },
  },
  "policy revise": {
    usage: "--policy NUMBER [--coverage-amount-cents N] [--start-date D] [--end-date D] [--unit-external-id U] [--note TEXT]",
    run: async (flags) => {
      const cents = opt(flags, "coverage-amount-cents");
      // The domain validates the amount (positive, within the owner's ceiling); here only "is it a number".
      if (cents !== undefined && !/^-?\d+$/.test(cents.trim())) throw new UsageError("--coverage-amount-cents must be a whole number of cents");
      const db = await getDb();
      const id = await policyIdByNumber(db, str(flags, "policy"));
      const revised = await db.transaction((tx) =>
        revisePolicy(tx, cliActor(), id, {
          coverage_amount_cents: cents === undefined ? undefined : Number(cents),
          coverage_start_date: opt(flags, "start-date"),
          coverage_end_date: opt(flags, "end-date"),
          unit_external_id: opt(flags, "unit-external-id"),
          note: opt(flags, "note"),
        }),
      );
      return policyListEntry(revised.policy);
    },
  },
  "policy cancel": {
    usage: "--policy NUMBER [--reason TEXT]",
    run: async (flags) => {
      const db = await getDb();
      const id = await policyIdByNumber(db, str(flags, "policy"));
      const canceled = await db.transaction((tx) => cancelPolicy(tx, cliActor(), id, { reason: opt(flags, "reason") }));
      // decisions §18 Refunds: the unearned premium refunded (0 for monthly or unpaid policies).
      const [refund] = await refundsOfPolicy(db, id);
      return { ...policyListEntry(canceled), refund_cents: refund?.amountCents ?? 0 };
    },
  },
  "policy expire-due": {
    usage: "[--as-of YYYY-MM-DD] (a date other than today: staging only)",
    run: async (flags) => {
      // The daily sweep run by hand: it also starts upcoming policies due, listed under `activated`.
      const asOf = resolveAsOf(typeof flags["as-of"] === "string" ? flags["as-of"] : undefined);
      const db = await getDb();
      const result = await sweepDuePolicies(db, asOf, { actor: `cli:${cliUser()}` });
      const answer = { as_of: asOf, expired: result.expired, activated: result.activated };
      // Its batches commit one by one (sweep.ts): the run is recorded once, after them, with its counts
      // (each policy's change is in its status history, actor `cli:<user>`).
      const counts = { as_of: asOf, expired: result.expired.length, activated: result.activated.length };
      await recordAudit(db, cliActor(), { action: "policies.expire_due", subject: { type: "policy_sweep", id: asOf }, after: counts });
      return answer;
    },
  },
  "building show": {
    usage: "--owner SLUG --external-id X",
    run: async (flags) => {
      const db = await getDb();
      return showBuilding(db, await findBuildingId(db, str(flags, "owner"), str(flags, "external-id")));
    },
  },
  "building correct-address": {
    usage: "--owner SLUG --external-id X --line-one L --city C --state S --zip Z",
    run: async (flags) => {
      const db = await getDb();
      const address = { line_one: str(flags, "line-one"), city: str(flags, "city"), state: str(flags, "state"), zip: str(flags, "zip") };
      const id = await findBuildingId(db, str(flags, "owner"), str(flags, "external-id"));
      return correctAddress(db, cliActor(), id, address);
    },
  },
  "source create": {
    usage: "--code C --client-id ID [--flow embedded|expedited] [--optional-ingest-fields] [--redirect-domain D]...",
    run: async (flags) => {
      const flow = opt(flags, "flow") ?? "embedded";
      if (flow !== "embedded" && flow !== "expedited") throw new UsageError("--flow must be embedded or expedited");
      const source = await createSourceByStaff(await getDb(), cliActor(), {
        code: str(flags, "code"),
        client_id: str(flags, "client-id"),
        flow,
        optional_ingest_fields: flags["optional-ingest-fields"] === true,
        redirect_domains: repeated(flags, "redirect-domain"),
      });
      const { code, client_id, optional_ingest_fields, redirect_domains } = source;
      return { source: { code, client_id, flow: source.flow, optional_ingest_fields, redirect_domains } };
    },
  },
  "provider create": {
    usage: "--code CODE --client-id ID [--owners s1,s2] [--building OWNER_SLUG:EXTERNAL_ID]...",
    run: async (flags) => {
      const buildings = repeated(flags, "building").map((ref) => {
        const [ownerSlug, externalId] = splitOnce(ref, ":");
        if (!ownerSlug || !externalId) throw new UsageError(`--building must be OWNER_SLUG:EXTERNAL_ID, got "${ref}"`);
        return { owner_slug: ownerSlug, external_id: externalId };
      });
      const input = { code: str(flags, "code"), client_id: str(flags, "client-id"), owner_slugs: list(opt(flags, "owners")) ?? [], buildings };
      const row = await createProviderByStaff(await getDb(), cliActor(), input);
      const coverage = {
        owners: row.owners.map((o) => o.owner_slug),
        buildings: row.buildings.map((b) => ({ owner_slug: b.owner_slug, external_id: b.external_id })),
      };
      return { provider: { code: row.code, client_id: row.client_id, ...coverage } };
    },
  },
  "endpoint headers": {
    usage: "--endpoint-id ID [--set 'Name: value']... [--unset Name]...",
    run: async (flags) => {
      const set: Record<string, string> = {};
      for (const header of repeated(flags, "set")) {
        const [name, value] = splitOnce(header, ":");
        if (value === undefined || !name.trim()) throw new UsageError(`--set must be 'Name: value', got "${header}"`);
        set[name.trim()] = value.trim();
      }
      const changes = { set, unset: repeated(flags, "unset").map((name) => name.trim()) };
      const endpoint = await setEndpointHeadersAsStaff(await getDb(), cliActor(), str(flags, "endpoint-id"), changes);
      return { endpoint_id: endpoint.id, static_headers: endpoint.static_headers };
    },
  },
  "delivery retry-failed": {
    usage: "--owner SLUG [--endpoint ID] [--since ISO] [--dry-run]",
    run: async (flags) => {
      // The console's bulk retry, run here and now (no job), audited as the CLI (decisions §4).
      const filter = { owner: str(flags, "owner"), endpoint_id: opt(flags, "endpoint"), from: opt(flags, "since") };
      const db = await getDb();
      if (flags["dry-run"] === true) return { ...(await countFailedDeliveries(db, filter)), enqueued: 0 };
      const bulk = await startBulkRetry(db, cliActor(), filter, { inline: true });
      const done = await runBulkRetry(db, bulk.id);
      return { matched: bulk.matched, enqueued: done?.enqueued ?? 0 };
    },
  },
  "retention run": {
    usage: "[--dry-run] (windows from RETENTION_*_DAYS; --dry-run counts and deletes nothing)",
    run: async (flags) => {
      // The daily retention prune run now (decisions §14 Retention), in the same short batches.
      const db = await getDb();
      const windows = configuredWindows();
      if (flags["dry-run"] === true) return { dry_run: true, would_delete: await countExpired(db, windows) };
      const deleted = await pruneExpired(db, windows);
      await recordAudit(db, cliActor(), { action: "retention.run", subject: { type: "retention", id: "run" }, after: { windows, deleted } });
      return { deleted };
    },
  },
  "frame-origin add": {
    usage: "--origin https://... (staging also http://localhost[:port], http://127.0.0.1[:port])",
    run: async (flags) => {
      const row = await addFrameOriginByStaff(await getDb(), cliActor(), str(flags, "origin"), { ifListed: "keep" });
      return { origin: row.origin };
    },
  },
  "user create": {
    usage: "--email E --password P --role operator|account_manager",
    run: async (flags) => {
      const role = str(flags, "role");
      if (role !== "operator" && role !== "account_manager") throw new UsageError("--role must be operator or account_manager");
      const user = await createStaffUser(await getDb(), cliActor(), { email: str(flags, "email"), password: str(flags, "password"), role });
      return { user_id: user.id };
    },
  },
  ...BILLING_COMMANDS,
  ...PAYMENT_COMMANDS,
  ...MASTER_KEY_COMMANDS,
};

/**
 * The CLI's rendering of the one error model (`toAppError`): the message and kind, then each field's
 * messages; an internal error names its cause, for the operator who ran the command.
 */
function cliMessageOf(error: unknown): string {
  const known = toAppError(error);
  if (known.kind === "internal") return `Internal error: ${messageOf(known.cause ?? error)}`;
  const fields = known.kind === "invalid" ? Object.entries(fieldMessagesOf(known)).filter(([field]) => field !== "base") : [];
  return [`${known.message} (${known.kind})`, ...fields.map(([field, messages]) => `  ${field}: ${messages.join("; ")}`)].join("\n");
}

const messageOf = (cause: unknown): string => (cause instanceof Error ? cause.message : String(cause));

export async function runAdmin(argv: string[]): Promise<number> {
  const [noun, verb, ...rest] = argv;
  const name = `${noun ?? ""} ${verb ?? ""}`;
  const command = COMMANDS[name];
  if (!command) {
    process.stderr.write(
      `Unknown command "${name.trim()}". Commands:\n${Object.entries(COMMANDS)
        .map(([n, c]) => `  ${n} ${c.usage}`)
        .join("\n")}\n`,
    );
    return 2;
  }
  try {
    const values = parseFlags(rest, command.usage, {
      options: {
        name: { type: "string" },
        gateway: { type: "string" },
        provider: { type: "string" },
        scopes: { type: "string" },
        "require-signature": { type: "boolean" },
        "client-id": { type: "string" },
        "partner-client-id": { type: "string" },
        owner: { type: "string" },
        owners: { type: "string" },
        building: { type: "string", multiple: true },
        "endpoint-id": { type: "string" },
        endpoint: { type: "string" },
        since: { type: "string" },
        "dry-run": { type: "boolean" },
        set: { type: "string", multiple: true },
        unset: { type: "string", multiple: true },
        "external-org-id": { type: "string" },
        "external-id": { type: "string" },
        "line-one": { type: "string" },
        city: { type: "string" },
        state: { type: "string" },
        zip: { type: "string" },
        "pms-type": { type: "string" },
        "pms-property-id": { type: "string" },
        code: { type: "string" },
        flow: { type: "string" },
        "optional-ingest-fields": { type: "boolean" },
        "redirect-domain": { type: "string", multiple: true },
        origin: { type: "string" },
        email: { type: "string" },
        password: { type: "string" },
        role: { type: "string" },
        from: { type: "string" },
        into: { type: "string" },
        policy: { type: "string" },
        "coverage-amount-cents": { type: "string" },
        "start-date": { type: "string" },
        "end-date": { type: "string" },
        "unit-external-id": { type: "string" },
        note: { type: "string" },
        reason: { type: "string" },
        ...BILLING_OPTIONS,
      },
    });
    await migrateDatabase(await databaseUrl());
    const result = await command.run(values);
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\nUsage: admin ${name} ${command.usage}\n`);
      return USAGE_EXIT_CODE;
    }
    process.stderr.write(`${cliMessageOf(error)}\n`);
    return 1;
  } finally {
    await closeDb();
  }
}
