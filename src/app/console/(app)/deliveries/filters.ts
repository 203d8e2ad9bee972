import type { ConsoleInputs } from "../../_ui";

/** The deliveries filters as the URL keeps them (names and defaults). */
export const FILTERS = { owner: "", endpoint: "", event: "", status: "", from: "", to: "", prospect: "", policy: "", move_out: "" };
export type FilterValues = Record<keyof typeof FILTERS, string>;

type SearchInput = ConsoleInputs["webhooks"]["deliveries"]["search"];

/** A day (YYYY-MM-DD, UTC) as the start of that day; `to` covers the whole day it names. */
const dayStart = (day: string, plusDays = 0) => {
  const at = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return undefined;
  return new Date(at.getTime() + plusDays * 86_400_000).toISOString();
};

/** The URL's filters as the search procedure takes them (empty ones left out). */
export function searchInputOf(values: FilterValues): Omit<SearchInput, "cursor" | "limit"> {
  const moveOut = Number(values.move_out);
  return {
    owner: values.owner || undefined,
    endpoint_id: values.endpoint || undefined,
    event: (values.event || undefined) as SearchInput["event"],
    status: (values.status || undefined) as SearchInput["status"],
    from: values.from ? dayStart(values.from) : undefined,
    to: values.to ? dayStart(values.to, 1) : undefined,
    source_prospect_id: values.prospect || undefined,
    policy_number: values.policy || undefined,
    move_out_id: Number.isInteger(moveOut) && moveOut > 0 ? moveOut : undefined,
  };
}
