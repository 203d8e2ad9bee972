import { and, eq } from "drizzle-orm";
import { getDb } from "../../server/db/client";
import { findOwnerBySlug } from "../owners/service";
import { type Flow, isValidLink, type LinkCadence, type SelectedProduct } from "./enrollment-links";
import { prospects } from "./tables";

export type EnrollmentState =
  | { kind: "invalid" }
  | {
      kind: "found";
      flow: Flow;
      firstName: string | null;
      status: string;
      eligible: boolean;
      guarantee: boolean;
      /** decisions §10 Links: a product link's preselection (it preselects, nothing more). */
      selectedProduct?: SelectedProduct;
      cadence?: LinkCadence;
    };

const PRODUCTS: readonly string[] = ["security_deposit_insurance", "cash_deposit"];
const LINK_CADENCES: readonly string[] = ["upfront", "monthly"];

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
  selected_product?: string;
  cadence?: string;
}): Promise<EnrollmentState> {
  if (params.flow !== "embedded" && params.flow !== "expedited") return { kind: "invalid" };
  const selected = params.selected_product || undefined;
  const cadence = params.cadence || undefined;
  if (selected !== undefined && !PRODUCTS.includes(selected)) return { kind: "invalid" };
  if (cadence !== undefined && !LINK_CADENCES.includes(cadence)) return { kind: "invalid" };
  const preselect = {
    ...(selected ? { selectedProduct: selected as SelectedProduct } : {}),
    ...(cadence ? { cadence: cadence as LinkCadence } : {}),
  };
  const parts = { flow: params.flow as Flow, ownerSlug: params.owner, source: params.source, sourceProspectId: params.id, email: params.email, ...preselect };
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
    ...preselect,
  };
}
