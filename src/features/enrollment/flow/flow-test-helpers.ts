import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { getDb } from "../../../server/db/client";
import type { enrollmentPartnersOfThisFile } from "../../policies/policy-test-helpers";
import { enrollmentUrl, type LinkCadence, type SelectedProduct } from "../../prospects/enrollment-links";
import type { Prospect } from "../../prospects/prospects.table";
import { applications } from "../applications/applications.table";
import type { ActionResult, FlowView, LinkParams, LoadResult, PaymentInput } from "./contract";
import { loadEnrollment } from "./service";

/** The link a page would receive for an enrollment URL: path segments decoded, query values raw. */
export function linkOf(url: string, extra: Partial<LinkParams> = {}): LinkParams {
  const parsed = new URL(url);
  const [, , flow, owner, source, id] = parsed.pathname.split("/").map(decodeURIComponent);
  const query = (name: string) => parsed.searchParams.get(name) ?? undefined;
  return {
    flow,
    owner,
    source,
    id,
    email: query("email"),
    sig: query("sig"),
    selected_product: query("selected_product"),
    cadence: query("cadence"),
    ...extra,
  };
}

export const DETAILS = { firstName: "Rita", lastName: "Renter", phone: "5125550123", birthdate: "1990-04-02", acceptDisclosures: true };

export function card(number = "4242 4242 4242 4242", attempt = randomBytes(8).toString("hex")): PaymentInput {
  return { number, expiry: "12/30", cvc: "123", postalCode: "78704", nameOnCard: "Rita Renter", attempt };
}

/** The view of a load that must be valid. */
export async function viewOf(link: LinkParams): Promise<FlowView> {
  const loaded: LoadResult = await loadEnrollment(link);
  if (loaded.kind !== "view") throw new Error("link is not valid");
  return loaded.view;
}

/** The view of an action that must have succeeded. */
export function okView(result: ActionResult): FlowView {
  expect(result).toMatchObject({ ok: true });
  return result.view;
}

export async function applicationsOf(prospect: Prospect) {
  return (await getDb()).select().from(applications).where(eq(applications.prospectId, prospect.id));
}

type Partner = Awaited<ReturnType<ReturnType<typeof enrollmentPartnersOfThisFile>>>;

/**
 * A ready prospect of the partner and its link: the source's flow by default, the hosted one with
 * `flow: "expedited"`, or a product link (`selectedProduct`, `cadence`).
 */
export async function renter(
  p: Partner,
  id: string,
  extra: Record<string, unknown> = {},
  options: { flow?: "embedded" | "expedited"; selectedProduct?: SelectedProduct; cadence?: LinkCadence } = {},
) {
  const prospect = await p.ready(id, extra);
  const url = enrollmentUrl({
    flow: options.flow ?? "embedded",
    ownerSlug: p.owner.slug,
    source: p.source,
    sourceProspectId: id,
    email: prospect.email ?? "",
    ...(options.selectedProduct ? { selectedProduct: options.selectedProduct } : {}),
    ...(options.cadence ? { cadence: options.cadence } : {}),
  });
  return { prospect, link: linkOf(url) };
}
