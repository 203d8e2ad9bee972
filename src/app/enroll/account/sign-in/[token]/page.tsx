import styles from "../../../_components/enroll.module.css";
import { AccountFrame } from "../../_components/account-frame";
import { RedeemForm } from "../../_components/redeem-form";
import { redeemLinkAction } from "../../actions";

export const dynamic = "force-dynamic";
export const metadata = { title: "Sign in to your account", referrer: "no-referrer" };

type Props = { params: Promise<{ token: string }> };

/**
 * `{enrollment_host}/account/sign-in/<token>`, the link of the `account_sign_in` message (decisions
 * §19). Opening it changes nothing; the button uses it (once) and sets the session cookie.
 */
export default async function SignInLinkPage({ params }: Props) {
  const { token } = await params;
  return (
    <AccountFrame page="link">
      <h1 className={styles.title}>Sign in to your account</h1>
      <p className={styles.lead}>Press the button to open your policies on this device.</p>
      <RedeemForm action={redeemLinkAction.bind(null, token)} />
    </AccountFrame>
  );
}
