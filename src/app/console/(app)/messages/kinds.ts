/** The kinds of renter message as staff read them (decisions §19 Messages). */
export const KIND_LABELS: Record<string, string> = {
  account_sign_in: "Account sign-in link",
  policy_issued: "Policy issued",
  policy_documents_updated: "Documents updated",
  payment_receipt: "Payment receipt",
  payment_failed: "Payment failed",
  delinquency_resolved: "Delinquency resolved",
  application_declined: "Application declined",
  policy_canceled: "Policy canceled",
  coverage_ending: "Coverage ending",
};

export const STATUS_LABELS: Record<string, string> = {
  queued: "Queued",
  sending: "Sending",
  sent: "Sent",
  failed: "Failed",
  kept: "Kept (not sent)",
};

/** Badge tones of the outbox's statuses (the badge's table knows the others). */
export const STATUS_TONES = { queued: "warning", sending: "warning", sent: "success", failed: "danger", kept: "info" } as const;
