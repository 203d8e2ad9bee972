import { sql } from "drizzle-orm";
import { accountSessions, accountSignInLinks } from "../account/account.table";
import { renterMessages } from "../messages/renter-messages.table";
import { cutoff, type Kind, since } from "./batches";

/**
 * What retention keeps of the renter's messages and account (decisions §19, §14 Retention;
 * docs/decisions.md, "Retention: renter messages and the account"). Every row here names a person
 * (an email, a policy number; a message's body their name and figures), so each goes once it is of
 * no more use to the renter or to support.
 */

/**
 * Sign-in links and account sessions are kept this long past their expiry: long enough for a renter
 * who opens yesterday's link to be told it expired (rather than that it is unknown), and for support
 * to see that a renter signed in; after that they open nothing and tell no one anything.
 */
export const ACCOUNT_RECORDS_GRACE_HOURS = 24;

/**
 * A sign-in message is kept this long after it settled whatever `RETENTION_MESSAGES_DAYS` says (or
 * the window, when shorter): the link it carries died 15 minutes after it was written, and a week
 * answers "did my link go out?".
 */
export const SIGN_IN_MESSAGE_DAYS = 7;

/** A message no worker will send again: sent, failed for good, or kept (staging). `queued` and `sending` never go. */
const SETTLED = sql`status in ('sent', 'failed', 'kept')`;

/**
 * Settled messages unchanged for the window (`updated_at`: when it was sent, failed or kept), walked
 * by the partial index `renter_messages_settled_idx`. A failed message stays the window for an
 * operator to resend; a resend is a new message with its own clock, and the copy's link to a
 * pruned original is cleared by its foreign key (`on delete set null`).
 */
export const settledMessages = (days: number): Kind => ({
  table: renterMessages,
  candidates: (after) => sql`
    select id, updated_at as cursor from ${renterMessages}
    where ${SETTLED} and updated_at < ${cutoff(days)} ${since(sql`updated_at`, after)}`,
});

/** Settled sign-in messages older than `days`, walked by `renter_messages_sign_in_settled_idx`. */
export const signInMessages = (days: number): Kind => ({
  table: renterMessages,
  candidates: (after) => sql`
    select id, updated_at as cursor from ${renterMessages}
    where kind = 'account_sign_in' and ${SETTLED} and updated_at < ${cutoff(days)} ${since(sql`updated_at`, after)}`,
});

/** Sign-in links a day past their 15 minutes, used or not, walked by `account_sign_in_links_expires_idx`. */
export const signInLinks: Kind = {
  table: accountSignInLinks,
  candidates: (after) => sql`
    select id, expires_at as cursor from ${accountSignInLinks}
    where expires_at < now() - make_interval(hours => ${ACCOUNT_RECORDS_GRACE_HOURS}::int) ${since(sql`expires_at`, after)}`,
};

/**
 * Account sessions a day past their 12 hours, walked by `account_sessions_expires_idx`. A revoked
 * session is refused from its revocation and goes with the others (at most 36 h after it was
 * revoked): its expiry bounds it, and one indexed rule is enough.
 */
export const accountSessionsPast: Kind = {
  table: accountSessions,
  candidates: (after) => sql`
    select id, expires_at as cursor from ${accountSessions}
    where expires_at < now() - make_interval(hours => ${ACCOUNT_RECORDS_GRACE_HOURS}::int) ${since(sql`expires_at`, after)}`,
};

/** The message kinds for a window (`RETENTION_MESSAGES_DAYS`, 0 keeping settled messages forever, sign-in messages aside). */
export function messageKinds(days: number): Kind[] {
  if (days === 0) return [signInMessages(SIGN_IN_MESSAGE_DAYS)];
  return [settledMessages(days), ...(days > SIGN_IN_MESSAGE_DAYS ? [signInMessages(SIGN_IN_MESSAGE_DAYS)] : [])];
}
