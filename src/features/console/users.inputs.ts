import { z } from "zod";

/**
 * The inputs of the console's Users procedures, in a module without server imports: the console's
 * forms check the very same schemas in the browser (CONTRIBUTING.md, "A console form").
 */

/** The console's password policy (docs/decisions.md, Console access): 12 to 200 characters, not the email. */
export const PASSWORD_MAX_LENGTH = 200;

export const staffRole = z.enum(["operator", "account_manager"]);

const byId = z.object({ id: z.number().int().positive() });
// Bounded here only against abuse; the policy itself (and its message) is passwordProblem's.
const password = z.string().max(PASSWORD_MAX_LENGTH + 1);

export const staffUserCreateInput = z.object({ email: z.string().max(300), password, role: staffRole });
export const staffUserRoleInput = byId.extend({ role: staffRole });
export const staffUserDisabledInput = byId.extend({ disabled: z.boolean() });
export const staffPasswordResetInput = byId.extend({ password });
