import { and, eq, inArray, sql } from "drizzle-orm";
import type { Tx } from "../../server/db/client";
import { encryptSecret } from "../../server/secrets";
import type { BankAccountItem } from "./api/bank-accounts.types";
import { bankAccountItem } from "./api/bank-accounts.types";
import { applyInOrder, externalIdOf, fail, ItemFailure, type ItemResult, parseItems } from "./collection";
import { ROSTER_MESSAGES } from "./messages";
import { bankAccounts } from "./roster.table";

type Account = typeof bankAccounts.$inferSelect;
type Draft = { row: Partial<typeof bankAccounts.$inferInsert> & { externalSystemId: string }; existing?: Account };
export type BankAccountResult = ItemResult & { display_name?: string; routing_number?: string; account_number_last4?: string; default?: boolean };

/**
 * spec Bank account rules 1-5. Items are decided in request order against an in-memory view of the
 * owner's accounts (so a later item sees an earlier one), then written with one insert, one update
 * and one statement that settles the default.
 */
export async function upsertBankAccounts(tx: Tx, ownerId: number, rawItems: unknown[]): Promise<BankAccountResult[]> {
  const ids = rawItems.map(externalIdOf).filter((id): id is string => id !== null);
  const stored = ids.length
    ? await tx
        .select()
        .from(bankAccounts)
        .where(and(eq(bankAccounts.ownerId, ownerId), inArray(bankAccounts.externalSystemId, ids)))
    : [];
  const [currentDefault] = await tx
    .select({ externalSystemId: bankAccounts.externalSystemId })
    .from(bankAccounts)
    .where(and(eq(bankAccounts.ownerId, ownerId), eq(bankAccounts.isDefault, true)));
  const byId = new Map(stored.map((account) => [account.externalSystemId, account]));
  const drafts = new Map<string, Draft>();
  let defaultId = currentDefault?.externalSystemId ?? null;
  const results: BankAccountResult[] = applyInOrder(parseItems(bankAccountItem, rawItems), (item) => {
    const draft = drafts.get(item.external_system_id) ?? { row: { externalSystemId: item.external_system_id }, existing: byId.get(item.external_system_id) };
    const known = draft.existing !== undefined || drafts.has(item.external_system_id);
    const next = applyItem(draft, item, known);
    // spec Bank account rules 2: `default: false` on the current default is an item failure.
    if (item.default === false && defaultId === item.external_system_id) fail("default", ROSTER_MESSAGES.cannotUnsetDefault);
    drafts.set(item.external_system_id, next);
    // spec rules 1-2: the first account is the default; `default: true` moves it.
    if (defaultId === null || item.default === true) defaultId = item.external_system_id;
    return known ? "updated" : "created";
  });

  const written = await writeAccounts(tx, ownerId, [...drafts.values()], defaultId);
  return results.map((result) => {
    const account = result.action === "failed" || !result.external_system_id ? undefined : written.get(result.external_system_id);
    return account
      ? {
          ...result,
          display_name: account.displayName,
          routing_number: account.routingNumber,
          account_number_last4: account.accountNumberLast4,
          default: account.isDefault,
        }
      : result;
  });
}

function applyItem(draft: Draft, item: BankAccountItem, known: boolean): Draft {
  const row = { ...draft.row };
  if (!known) {
    const missing = (["display_name", "routing_number", "account_number"] as const).filter((field) => item[field] === undefined);
    if (missing.length) throw new ItemFailure(Object.fromEntries(missing.map((field) => [field, [ROSTER_MESSAGES.required]])));
  }
  // spec Common rules 3: only fields present in an item are written.
  if (item.display_name !== undefined) row.displayName = item.display_name;
  if (item.routing_number !== undefined) row.routingNumber = item.routing_number;
  if (item.account_number !== undefined) {
    row.accountNumberEncrypted = encryptSecret(item.account_number);
    row.accountNumberLast4 = item.account_number.slice(-4);
  }
  return { ...draft, row };
}

async function writeAccounts(tx: Tx, ownerId: number, drafts: Draft[], defaultId: string | null): Promise<Map<string, Account>> {
  const creates = drafts.filter((draft) => !draft.existing);
  const updates = drafts.filter((draft) => draft.existing && Object.keys(draft.row).length > 1);
  if (creates.length) {
    await tx.insert(bankAccounts).values(
      creates.map(({ row }) => ({
        ownerId,
        externalSystemId: row.externalSystemId,
        displayName: row.displayName as string,
        routingNumber: row.routingNumber as string,
        accountNumberEncrypted: row.accountNumberEncrypted as string,
        accountNumberLast4: row.accountNumberLast4 as string,
      })),
    );
  }
  for (const { row, existing } of updates) {
    // Updates of one batch are few and each touches its own row; one statement per changed account.
    await tx
      .update(bankAccounts)
      .set({ ...row, updatedAt: sql`now()` })
      .where(eq(bankAccounts.id, (existing as Account).id));
  }
  if (defaultId !== null) {
    // Unset, then set: the partial unique index (one default per owner) is checked row by row.
    await tx.execute(sql`update bank_accounts set is_default = false
      where owner_id = ${ownerId} and is_default and external_system_id <> ${defaultId}`);
    await tx.execute(sql`update bank_accounts set is_default = true
      where owner_id = ${ownerId} and external_system_id = ${defaultId} and not is_default`);
  }
  const ids = drafts.map((draft) => draft.row.externalSystemId);
  const rows = ids.length
    ? await tx
        .select()
        .from(bankAccounts)
        .where(and(eq(bankAccounts.ownerId, ownerId), inArray(bankAccounts.externalSystemId, ids)))
    : [];
  return new Map(rows.map((row) => [row.externalSystemId, row]));
}
