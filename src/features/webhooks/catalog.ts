/** spec Events, Event catalog: the only names an endpoint can subscribe to (no wildcard). */
export const EVENT_CATALOG = {
  "prospect.created": "third_party_prospect",
  "prospect.ready": "third_party_prospect",
  "prospect.incomplete": "third_party_prospect",
  "policy.created": "insurance_policy",
  "policy.updated": "insurance_policy",
  "policy.canceled": "insurance_policy",
  "policy.expired": "insurance_policy",
  "policy.documents_updated": "insurance_policy",
  "policy_application.created": "policy_application",
  "policy_application.quoted": "policy_application",
  "policy_application.declined": "policy_application",
  "policy_application.submitted": "policy_application",
  "delinquency.created": "delinquency",
  "delinquency.resolved": "delinquency",
  "move_out.initiated": "move_out",
} as const;

export type EventName = keyof typeof EVENT_CATALOG;
export type DataKey = (typeof EVENT_CATALOG)[EventName];
export const EVENT_NAMES = Object.keys(EVENT_CATALOG) as EventName[];

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(EVENT_CATALOG, name);
}
