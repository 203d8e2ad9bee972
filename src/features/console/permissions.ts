import type { ConsoleUser } from "../../server/trpc/context";

export type StaffRole = ConsoleUser["role"];

const BOTH: readonly StaffRole[] = ["operator", "account_manager"];
const OPERATOR: readonly StaffRole[] = ["operator"];

/**
 * What each console role may do (decisions §12): operators may do everything; account managers
 * manage owners, clients, grants, sources, frame origins and secrets, and read deliveries. Every
 * console procedure names one of these (`staffProcedure(permission)`), so this map is the one place
 * a role's reach is decided. Keys are `<area>.<verb>`; `read` permissions cover searches and details.
 */
export const PERMISSIONS = {
  "overview.read": BOTH,
  "audit.read": BOTH,
  "deliveries.read": BOTH,
  "deliveries.retry": OPERATOR,
  "deliveries.bulk_retry": OPERATOR,
  "endpoints.manage": OPERATOR,
  "buildings.read": BOTH,
  "buildings.correct_address": OPERATOR,
  "buildings.activate": OPERATOR,
  "owners.read": BOTH,
  "owners.manage": BOTH,
  "owners.merge": OPERATOR,
  "access.read": BOTH,
  "access.manage": BOTH,
  "secrets.manage": BOTH,
  "users.manage": OPERATOR,
  "prospects.read": BOTH,
  "policies.read": BOTH,
  "policies.manage": OPERATOR,
  "ingestion.read": BOTH,
  "messages.read": BOTH,
  "messages.resend": OPERATOR,
} as const satisfies Record<string, readonly StaffRole[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: StaffRole, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly StaffRole[]).includes(role);
}

/** The permissions of a role, for the console to hide what the signed-in user cannot do. */
export function permissionsOf(role: StaffRole): Permission[] {
  return (Object.keys(PERMISSIONS) as Permission[]).filter((permission) => can(role, permission));
}
