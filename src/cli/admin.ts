import os from "node:os";
import { parseArgs } from "node:util";
import { createClient, grantOwnerBySlug } from "../features/auth/clients";
import { type Gateway, type Scope, scopesOfGateway } from "../features/auth/scopes";
import { audienceOf } from "../features/auth/tokens";
import { createUser } from "../features/console/users";
import { addFrameOrigin } from "../features/enrollment/frame-origins";
import { grantBuilding } from "../features/owners/building-grants";
import { mergeOwners } from "../features/owners/merge/merge";
import { listOwners } from "../features/owners/merge/owner-list";
import { planMerge } from "../features/owners/merge/plan";
import { createManagedOwner, findOwnerBySlug } from "../features/owners/service";
import { resolveAsOf } from "../features/policies/lifecycle/as-of";
import { sweepDuePolicies } from "../features/policies/lifecycle/sweep";
import { listPoliciesOfOwner, policyListEntry } from "../features/policies/list";
import { cancelPolicy } from "../features/policies/revisions/cancel";
import { policyIdByNumber } from "../features/policies/revisions/locked-policy";
import { revisePolicy } from "../features/policies/revisions/revise";
import { createSource } from "../features/prospects/sources";
import { correctAddress } from "../features/roster/console/actions";
import { findBuildingId, showBuilding } from "../features/roster/console/buildings";
import { countFailedDeliveries, runBulkRetry, startBulkRetry } from "../features/webhooks/console/retry";
import { createProvider } from "../features/webhooks/providers";
import { ROTATION_WINDOW_MS, rotateOwnerSecret } from "../features/webhooks/secrets";
import { setStaticHeaders } from "../features/webhooks/static-headers";
import { closeDb, databaseUrl, getDb } from "../server/db/client";
import { migrateDatabase } from "../server/db/migrate";
import { appErrorOf, errors, fieldMessagesOf } from "../server/errors";
import { decryptSecret } from "../server/secrets";
import { BILLING_COMMANDS, BILLING_OPTIONS } from "./admin-billing";
import { MASTER_KEY_COMMANDS } from "./admin-master-key";

/**
 * Operator CLI (decisions §4): `npm run admin -- <command> [flags]` prints one JSON object on stdout;
 * on failure a message on stderr and a non-zero exit code.
 */
type Flags = Record<string, string | boolean | string[] | undefined>;
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

class UsageError extends Error {}

const COMMANDS: Record<string, Command> = {
  "client create": {
    usage: "--name N [--gateway partner|ingestion] [--provider CODE] [--scopes s1,s2] [--require-signature]",
    run: async (flags) => {
      const gateway = (opt(flags, "gateway") ?? "partner") as Gateway;
      if (gateway !== "partner" && gateway !== "ingestion") throw new UsageError("--gateway must be partner or ingestion");
      const scopes = list(opt(flags, "scopes")) as Scope[] | undefined;
      const unknown = (scopes ?? []).filter((scope) => !scopesOfGateway(gateway).includes(scope));
      if (unknown.length) throw new UsageError(`Unknown ${gateway} scopes: ${unknown.join(", ")}`);
      const db = await getDb();
      return createClient(
        db,
        { name: str(flags, "name"), gateway, scopes, requireSignature: flags["require-signature"] === true, providerCode: opt(flags, "provider") },
        audienceOf(gateway),
      );
    },
  },
  "client grant": {
    usage: "--client-id ID --owner SLUG",
    run: async (flags) => grantOwnerBySlug(await getDb(), str(flags, "client-id"), str(flags, "owner")),
  },
  "owner create-managed": {
    usage: "--name N --external-org-id X",
    run: async (flags) => {
      const owner = await createManagedOwner(await getDb(), { name: str(flags, "name"), externalOrgId: str(flags, "external-org-id") });
      return { owner_slug: owner.slug };
    },
  },
  "owner grant-building": {
    usage: "--owner SLUG --client-id ID --pms-type pms_one|pms_two --pms-property-id P",
    run: async (flags) => {
      const pmsType = str(flags, "pms-type");
      if (pmsType !== "pms_one" && pmsType !== "pms_two") throw new UsageError("--pms-type must be pms_one or pms_two");
      return grantBuilding(await getDb(), {
        ownerSlug: str(flags, "owner"),
        clientId: str(flags, "client-id"),
        pmsType,
        pmsPropertyId: str(flags, "pms-property-id"),
      });
    },
  },
  "owner secret": {
    usage: "--owner SLUG",
    run: async (flags) => {
      const owner = await findOwnerBySlug(await getDb(), str(flags, "owner"));
      if (!owner) throw errors.notFound(`No owner ${flags.owner}`);
      return { signing_secret: decryptSecret(owner.signingSecretEncrypted) };
    },
  },
  "owner rotate-secret": {
    usage: "--owner SLUG",
    run: async (flags) => {
      const db = await getDb();
      const owner = await findOwnerBySlug(db, str(flags, "owner"));
      if (!owner) throw errors.notFound(`No owner ${flags.owner}`);
      const secret = await db.transaction((tx) => rotateOwnerSecret(tx, owner.id));
      return { signing_secret: secret, previous_secret_valid_until: new Date(Date.now() + ROTATION_WINDOW_MS).toISOString() };
    },
  },
  "owner merge": {
    usage: "--from SLUG --into SLUG [--dry-run]",
    run: async (flags) => {
      const db = await getDb();
      const pair = { from: str(flags, "from"), into: str(flags, "into") };
      if (flags["dry-run"] === true) return { plan: await planMerge(db, pair.from, pair.into) };
      return { merge: await mergeOwners(db, { cli: os.userInfo().username }, pair) };
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
        revisePolicy(tx, { cli: os.userInfo().username }, id, {
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
      return policyListEntry(await db.transaction((tx) => cancelPolicy(tx, { cli: os.userInfo().username }, id, { reason: opt(flags, "reason") })));
    },
  },
  "policy expire-due": {
    usage: "[--as-of YYYY-MM-DD] (a date other than today: staging only)",
    run: async (flags) => {
      // The daily sweep run by hand: it also starts upcoming policies due, listed under `activated`.
      const asOf = resolveAsOf(typeof flags["as-of"] === "string" ? flags["as-of"] : undefined);
      const result = await sweepDuePolicies(await getDb(), asOf, { actor: `cli:${os.userInfo().username}` });
      return { as_of: asOf, expired: result.expired, activated: result.activated };
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
      return correctAddress(db, { cli: os.userInfo().username }, id, address);
    },
  },
  "source create": {
    usage: "--code C --client-id ID [--flow embedded|expedited] [--optional-ingest-fields] [--redirect-domain D]...",
    run: async (flags) => {
      const flow = opt(flags, "flow") ?? "embedded";
      if (flow !== "embedded" && flow !== "expedited") throw new UsageError("--flow must be embedded or expedited");
      return createSource(await getDb(), {
        code: str(flags, "code"),
        clientId: str(flags, "client-id"),
        flow,
        optionalIngestFields: flags["optional-ingest-fields"] === true,
        redirectDomains: (flags["redirect-domain"] as string[] | undefined) ?? [],
      });
    },
  },
  "provider create": {
    usage: "--code CODE --client-id ID [--owners s1,s2] [--building OWNER_SLUG:EXTERNAL_ID]...",
    run: async (flags) => {
      const buildings = repeated(flags, "building").map((ref) => {
        const [ownerSlug, externalId] = splitOnce(ref, ":");
        if (!ownerSlug || !externalId) throw new UsageError(`--building must be OWNER_SLUG:EXTERNAL_ID, got "${ref}"`);
        return { ownerSlug, externalId };
      });
      const input = { code: str(flags, "code"), clientId: str(flags, "client-id"), ownerSlugs: list(opt(flags, "owners")), buildings };
      return (await getDb()).transaction((tx) => createProvider(tx, input));
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
      return setStaticHeaders(await getDb(), str(flags, "endpoint-id"), { set, unset: repeated(flags, "unset").map((name) => name.trim()) });
    },
  },
  "delivery retry-failed": {
    usage: "--owner SLUG [--endpoint ID] [--since ISO] [--dry-run]",
    run: async (flags) => {
      // The console's bulk retry, run here and now (no job), audited as the CLI (decisions §4).
      const filter = { owner: str(flags, "owner"), endpoint_id: opt(flags, "endpoint"), from: opt(flags, "since") };
      const db = await getDb();
      if (flags["dry-run"] === true) return { ...(await countFailedDeliveries(db, filter)), enqueued: 0 };
      const bulk = await startBulkRetry(db, { cli: os.userInfo().username }, filter, { inline: true });
      const done = await runBulkRetry(db, bulk.id);
      return { matched: bulk.matched, enqueued: done?.enqueued ?? 0 };
    },
  },
  "frame-origin add": {
    usage: "--origin https://... (staging also http://localhost[:port], http://127.0.0.1[:port])",
    run: async (flags) => addFrameOrigin(await getDb(), str(flags, "origin")),
  },
  "user create": {
    usage: "--email E --password P --role operator|account_manager",
    run: async (flags) => {
      const role = str(flags, "role");
      if (role !== "operator" && role !== "account_manager") throw new UsageError("--role must be operator or account_manager");
      return createUser(await getDb(), { email: str(flags, "email"), password: str(flags, "password"), role });
    },
  },
  ...BILLING_COMMANDS,
  ...MASTER_KEY_COMMANDS,
};

/** The CLI's rendering of the one error model: the message, then each field's messages. */
function cliMessageOf(error: unknown): string {
  const known = appErrorOf(error);
  if (!known) return `Internal error: ${error instanceof Error ? error.message : String(error)}`;
  const fields = known.kind === "invalid" ? Object.entries(fieldMessagesOf(known)).filter(([field]) => field !== "base") : [];
  return [`${known.message} (${known.kind})`, ...fields.map(([field, messages]) => `  ${field}: ${messages.join("; ")}`)].join("\n");
}

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
    const { values } = parseArgs({
      args: rest,
      strict: true,
      options: {
        name: { type: "string" },
        gateway: { type: "string" },
        provider: { type: "string" },
        scopes: { type: "string" },
        "require-signature": { type: "boolean" },
        "client-id": { type: "string" },
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
    process.stderr.write(`${error instanceof UsageError ? `${error.message}\nUsage: admin ${name} ${command.usage}` : cliMessageOf(error)}\n`);
    return 1;
  } finally {
    await closeDb();
  }
}
