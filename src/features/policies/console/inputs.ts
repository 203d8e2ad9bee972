import { z } from "zod";
import { cancellationInput, revisionInput } from "../revisions/inputs";

/**
 * The inputs of the console's policy procedures, in a module without server imports: the policy
 * page's forms check the very same schemas in the browser (CONTRIBUTING.md, "A console form").
 */
export const policyById = z.object({ id: z.number().int().positive().max(2_147_483_647) });
export const policyReviseInput = policyById.extend(revisionInput.shape);
export const policyCancelInput = policyById.extend(cancellationInput.shape);
