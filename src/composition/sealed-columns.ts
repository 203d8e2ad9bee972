import { apiClients } from "../features/auth/clients.table";
import { ingestionEvents } from "../features/ingestion/ingestion-events.table";
import { ownerMerges } from "../features/owners/merge/merge.table";
import { propertyOwners } from "../features/owners/owners.table";
import { prospects } from "../features/prospects/prospects.table";
import { bankAccounts } from "../features/roster/roster.table";
import { providers } from "../features/webhooks/providers.table";
import type { SealedColumn } from "../server/reseal";

/**
 * Every column holding a value sealed with `encryptSecret` (src/server/secrets.ts), which
 * `master-key rotate` re-seals under the current MASTER_KEY (docs/operations.md). A new sealed
 * column is listed here, or a rotation leaves it under the old key.
 */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: apiClients, id: apiClients.id, sealed: apiClients.secretEncrypted },
  { table: propertyOwners, id: propertyOwners.id, sealed: propertyOwners.signingSecretEncrypted },
  { table: propertyOwners, id: propertyOwners.id, sealed: propertyOwners.previousSigningSecretEncrypted },
  { table: ownerMerges, id: ownerMerges.id, sealed: ownerMerges.fromSigningSecretEncrypted },
  { table: providers, id: providers.id, sealed: providers.signingSecretEncrypted },
  { table: providers, id: providers.id, sealed: providers.previousSigningSecretEncrypted },
  { table: bankAccounts, id: bankAccounts.id, sealed: bankAccounts.accountNumberEncrypted },
  { table: prospects, id: prospects.id, sealed: prospects.ssnEncrypted },
  // A pending ingestion event's never-echoed fields (docs/decisions.md, Hardening: ingestion).
  { table: ingestionEvents, id: ingestionEvents.id, sealed: ingestionEvents.sealedFields },
];
