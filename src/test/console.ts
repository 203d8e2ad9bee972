import { consoleRouter } from "../composition/console-router";
import { getDb } from "../server/db/client";
import { logger } from "../server/log";

/** A caller of the console's procedures as a signed-in staff member of `role` (`null`: signed out). */
export async function staff(role: "operator" | "account_manager" | null = "operator") {
  const base = { db: await getDb(), log: logger(), requestId: "test" };
  return consoleRouter.createCaller({ ...base, user: role && { id: 1, email: `${role}@example.com`, role } });
}
