import { getConfig } from "../../server/config";

/**
 * The renter's account lives on the enrollment host (decisions §19: `{enrollment_host}/account`);
 * links in messages are absolute (a mail client has no base URL).
 */
export function renterAccountUrl(path = ""): string {
  return `${getConfig().enrollmentBaseUrl}/account${path}`;
}

/** Where a payment-failed message sends the renter: the account's pay-now page of the policy (decisions §19). */
export function renterPayUrl(policyId: number): string {
  return renterAccountUrl(`/policies/${policyId}/pay`);
}
