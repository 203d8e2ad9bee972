import { queueRenterMessage } from "../../src/features/messages/queue";
import { closeDb, getDb } from "../../src/server/db/client";

/**
 * Writes one renter message (an account sign-in link) on the e2e server's database with the real
 * `queueRenterMessage`; the server's inline worker renders and keeps it (no SMTP_URL). Argument: the address.
 */
const to = process.argv[2] ?? "";
const db = await getDb();
const id = await db.transaction((tx) =>
  queueRenterMessage(tx, {
    kind: "account_sign_in",
    to,
    link: "http://localhost/account/sign-in/e2e",
    expiresAt: new Date(Date.now() + 900_000).toISOString(),
  }),
);
await closeDb();
process.stdout.write(`${JSON.stringify({ id })}\n`);
