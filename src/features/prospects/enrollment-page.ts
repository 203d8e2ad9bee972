import { and, eq } from "drizzle-orm";
import { getDb } from "../../server/db/client";
import { findOwnerBySlug } from "../owners/service";
import { type Flow, isValidLink } from "./enrollment-links";
import { prospects } from "./tables";

export type EnrollmentState =
  | { kind: "invalid" }
  | { kind: "found"; flow: Flow; firstName: string | null; status: string; eligible: boolean; guarantee: boolean };

/**
 * Resolves an enrollment link (spec Enrollment flow). The signature covers every part of the link,
 * so a forged or altered link — or one whose prospect's email changed — shows nothing.
 */
export async function enrollmentState(params: {
  flow: string;
  owner: string;
  source: string;
  id: string;
  email: string;
  sig: string;
}): Promise<EnrollmentState> {
  if (params.flow !== "embedded" && params.flow !== "expedited") return { kind: "invalid" };
  const parts = { flow: params.flow as Flow, ownerSlug: params.owner, source: params.source, sourceProspectId: params.id, email: params.email };
  if (!params.sig || !isValidLink(parts, params.sig)) return { kind: "invalid" };
  const db = await getDb();
  const owner = await findOwnerBySlug(db, params.owner);
  if (!owner) return { kind: "invalid" };
  const [prospect] = await db
    .select()
    .from(prospects)
    .where(and(eq(prospects.ownerId, owner.id), eq(prospects.source, params.source), eq(prospects.sourceProspectId, params.id)));
  if (!prospect || (prospect.email ?? "").toLowerCase() !== params.email.toLowerCase()) return { kind: "invalid" };
  return {
    kind: "found",
    flow: parts.flow,
    firstName: prospect.firstName,
    status: prospect.status,
    eligible: prospect.status === "ready" && prospect.eligibility?.eligible === true,
    guarantee: prospect.guarantorCoverage,
  };
}
