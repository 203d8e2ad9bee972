import { eq } from "drizzle-orm";
import type { Tx } from "../../../server/db/client";
import { propertyOwners } from "../../owners/owners.table";
import type { Prospect } from "../../prospects/prospects.table";
import { sources } from "../../prospects/sources.table";
import { emitEvent } from "../../webhooks/emit";
import type { Application } from "./applications.table";
import { policyApplicationPayload } from "./payload";

export type ApplicationEvent = "policy_application.created" | "policy_application.quoted" | "policy_application.declined" | "policy_application.submitted";

/**
 * Emits an application event in the caller's transaction. Like prospect events, an application is
 * the record of the prospect's source's client (only that partner's endpoints hear of it) and of
 * the prospect's building (providers covering single buildings; spec Delivery mechanics 6).
 */
export async function emitApplicationEvent(tx: Tx, event: ApplicationEvent, application: Application, prospect: Prospect): Promise<void> {
  const [row] = await tx
    .select({ slug: propertyOwners.slug, clientId: sources.clientId })
    .from(propertyOwners)
    .innerJoin(sources, eq(sources.id, prospect.sourceId))
    .where(eq(propertyOwners.id, prospect.ownerId));
  await emitEvent(tx, {
    ownerId: prospect.ownerId,
    ownerSlug: row.slug,
    event,
    data: policyApplicationPayload(application, prospect),
    clientId: row.clientId,
    building: { id: prospect.propertyId },
  });
}
