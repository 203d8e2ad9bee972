import { cookies } from "next/headers";
import { ACCOUNT_COOKIE, type AccountSessionView, accountSessionOf } from "@/features/account/sign-in";
import { getDb } from "@/server/db/client";

/** The app's path of `{enrollment_host}/account` (decisions §19): the account lives beside the enrollment pages. */
export const ACCOUNT_PATH = "/enroll/account";

/** The signed-in renter of this request, from the HttpOnly cookie's server-side session; undefined when signed out. */
export async function currentRenter(): Promise<AccountSessionView | undefined> {
  const token = (await cookies()).get(ACCOUNT_COOKIE)?.value;
  return token ? accountSessionOf(await getDb(), token) : undefined;
}

/** A policy id from the path: digits only, else none (the page's 404). */
export function policyIdOf(raw: string): number | undefined {
  return /^\d{1,10}$/.test(raw) ? Number(raw) : undefined;
}
