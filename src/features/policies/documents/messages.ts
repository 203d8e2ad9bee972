/** Messages of the policy documents (decisions §11 Documents). */
export const POLICY_DOCUMENT_MESSAGES = {
  invalidInput: "Declarations input is invalid",
} as const;
