import { type SQL, sql } from "drizzle-orm";
import { errors } from "../errors";

/** Ids as ONE array parameter (`= any(…)`), not a parameter each: a batch's statements stay small. */
export function idArray(ids: readonly number[]): SQL {
  if (!ids.every(Number.isSafeInteger)) throw errors.internal(new Error("ids must be integers"));
  return sql`${`{${ids.join(",")}}`}::int[]`;
}
