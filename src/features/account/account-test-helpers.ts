import { appErrorOf } from "../../server/errors";

/** The error kind a call ends with (`not_found`, `invalid`, …), or undefined when it answered. */
export async function kindOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return appErrorOf(error)?.kind;
  }
}
