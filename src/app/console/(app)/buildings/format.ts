type Address = { line_one: string; city: string; state: string; zip: string };

/** One line, as a policy prints it. */
export const oneLine = (address: Address) => `${address.line_one}, ${address.city}, ${address.state} ${address.zip}`;

export const SOURCE_LABELS: Record<string, string> = {
  units: "Derived from units",
  properties: "Sent on the property",
  staff_correction: "Staff correction",
  policy_lock: "Locked by the first policy",
};

export const LOCK_LABELS: Record<string, string> = {
  staff_correction: "corrected by staff",
  policy_issued: "a policy exists",
};
