import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import type { ReactNode } from "react";
import { type AccountPolicy, accountPolicy } from "@/features/account/overview";
import { getDb } from "@/server/db/client";
import styles from "../../_components/enroll.module.css";
import local from "./account.module.css";
import { AccountFrame } from "./account-frame";
import { ACCOUNT_PATH, currentRenter, policyIdOf } from "./session";

/**
 * The signed-in renter's policy named by the path (decisions §19): signed out, the sign-in page;
 * an id not theirs (or not an id), 404. The pay and card pages start here.
 */
export async function renterPolicyOf(params: Promise<{ id: string }>): Promise<{ email: string; policy: AccountPolicy }> {
  const renter = await currentRenter();
  if (!renter) redirect(ACCOUNT_PATH);
  const id = policyIdOf((await params).id);
  const policy = id === undefined ? undefined : await accountPolicy(await getDb(), renter.email, id);
  if (!policy) notFound();
  return { email: renter.email, policy };
}

type Props = {
  page: "pay" | "card";
  email: string;
  title: string;
  /** Through Stripe: `<main>`'s `data-processor` and `data-payment-intent` (decisions §18 markers). */
  payment?: { processor: "stripe"; intentId: string };
  children: ReactNode;
};

/** A policy's page of the account: the frame, the way back to the policies, the title. */
export function PolicyPage({ page, email, title, payment, children }: Props) {
  return (
    <AccountFrame page={page} email={email} payment={payment}>
      <Link className={local.back} href={ACCOUNT_PATH}>
        Back to your policies
      </Link>
      <h1 className={styles.title}>{title}</h1>
      {children}
    </AccountFrame>
  );
}
