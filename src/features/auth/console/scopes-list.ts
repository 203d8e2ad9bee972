import { INGESTION_SCOPES, PARTNER_SCOPES } from "../scopes";

/** Each gateway's scopes (decisions §5), for the console's pages: a plain module the browser bundle may import. */
export const ALL_SCOPES = { partner: PARTNER_SCOPES, ingestion: INGESTION_SCOPES } as const;
