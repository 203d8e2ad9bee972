import { zipSync } from "fflate";
import { errors } from "@/server/errors";
import { fieldErrorsOf } from "@/server/http/input-errors";
import { declarationsPdf, termsPdf } from "./declarations";
import { type DeclarationsInput, declarationsInputSchema } from "./input";
import { POLICY_DOCUMENT_MESSAGES } from "./messages";

/**
 * The policy's document archive (decisions §11 Documents; layout in docs/decisions.md, Policies):
 *
 *   policy-<number>.zip
 *   └── policy-<number>/declarations.pdf
 *   └── policy-<number>/terms.pdf
 *
 * Pure: the same input gives the same bytes (PDF metadata and zip entry times come from `issuedAt`).
 */
export type PolicyArchive = {
  /** The zip file. */
  bytes: Uint8Array;
  /** `policy-<number>.zip`: the name a download is saved under. */
  filename: string;
  /** Paths inside the zip, in order. */
  entries: string[];
};

export async function buildPolicyArchive(raw: DeclarationsInput): Promise<PolicyArchive> {
  const parsed = declarationsInputSchema.safeParse(raw);
  if (!parsed.success) throw errors.invalidFields(POLICY_DOCUMENT_MESSAGES.invalidInput, fieldErrorsOf(parsed.error));
  const input = parsed.data;
  const folder = `policy-${input.policyNumber}`;
  const [declarations, terms] = await Promise.all([declarationsPdf(input), termsPdf(input)]);
  const files = { [`${folder}/declarations.pdf`]: declarations, [`${folder}/terms.pdf`]: terms };
  // PDF streams are already deflated: stored entries cost little and zip faster.
  const bytes = zipSync(files, { level: 0, mtime: input.issuedAt });
  return { bytes, filename: `${folder}.zip`, entries: Object.keys(files) };
}
