import { afterAll, describe, expect, it } from "vitest";
import { databaseUrl } from "../../server/db/client";
import { connectPostgres } from "../../server/db/url";
import { unique } from "../../test/factories";
import { call } from "../../test/http";
import { completeProspect, prospectPartner } from "../prospects/prospect-test-helpers";

/**
 * The owner and its grant are read on every request, never cached (docs/decisions.md, Performance
 * and caches; "Performance: API throughput" kept it so): a change made by another process — here another
 * database connection, as the CLI or a second web process would — applies to the very next request
 * through the real handler.
 */
const other = connectPostgres(await databaseUrl(), { max: 1, onnotice: () => {} });
afterAll(() => other.end());

describe("owner access is read per request", () => {
  it("refuses the next request once the grant is revoked elsewhere, and serves the next one once it is given again", async () => {
    const partner = await prospectPartner();
    const first = await partner.post(completeProspect(partner.source));
    expect(first.status).toBe(200);

    await other`delete from client_owner_grants where client_id = ${partner.client.clientId} and owner_id = ${partner.owner.id}`;
    const revoked = await partner.post(completeProspect(partner.source));
    expect(revoked.status).toBe(403);
    expect(revoked.body).toEqual({ status_code: 403, error: "Client is not authorized for this property owner" });
    const read = await call("GET", `${partner.base}/prospects/${partner.source}/${unique("p")}`, { token: partner.token });
    expect(read.status).toBe(403);

    await other`insert into client_owner_grants (client_id, owner_id) values (${partner.client.clientId}, ${partner.owner.id})`;
    const again = await partner.post(completeProspect(partner.source));
    expect(again.status).toBe(200);
  });

  it("answers for the survivor on the next request once the slug's owner is merged elsewhere", async () => {
    const partner = await prospectPartner();
    const survivor = await prospectPartner();
    // The survivor is not granted to this client yet: the merged slug now answers 403, then 200 once granted.
    await other`update property_owners set merged_into_id = ${survivor.owner.id} where id = ${partner.owner.id}`;
    const merged = await partner.post(completeProspect(partner.source));
    expect(merged.status).toBe(403);
    await other`insert into client_owner_grants (client_id, owner_id) values (${partner.client.clientId}, ${survivor.owner.id})`;
    const granted = await partner.post(completeProspect(partner.source));
    expect(granted.status).toBe(200);
    const [row] = await other<{ ownerId: number }[]>`
      select owner_id as "ownerId" from prospects where source_prospect_id = ${String(granted.body.prospect.source_prospect_id)}`;
    expect(row.ownerId).toBe(survivor.owner.id);
  });
});
