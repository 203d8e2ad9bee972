"use client";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Badge, Button, Can, ConfirmDialog, errorMessage, Facts, Field, Input, JsonView, useConsoleMutation, useTRPC } from "../../../_ui";

const STATUSES = ["active", "suspended", "disabled"] as const;

/** The delivery's endpoint: its status and operator static headers (spec Delivery mechanics 5), changeable by operators. */
export function EndpointPanel({ id }: { id: string }) {
  const trpc = useTRPC();
  const { data: endpoint } = useQuery(trpc.webhooks.endpoints.detail.queryOptions({ id }));
  const setStatus = useConsoleMutation(trpc.webhooks.endpoints.setStatus.mutationOptions(), { invalidates: [trpc.webhooks] });
  const setHeaders = useConsoleMutation(trpc.webhooks.endpoints.setHeaders.mutationOptions(), { invalidates: [trpc.webhooks] });
  const [header, setHeader] = useState("");
  if (!endpoint) return null;
  return (
    <>
      <h2>Endpoint</h2>
      <Facts
        items={[
          ["Name", endpoint.name],
          ["Destination", endpoint.destination_url],
          ["Status", <Badge key="s" status={endpoint.deleted ? "deleted" : endpoint.status} />],
          ...(endpoint.suspension_reason ? [["Suspension reason", endpoint.suspension_reason] as [string, string]] : []),
          ["Events", endpoint.events.join(", ")],
          ["Subscriber", endpoint.owner_slug ? `owner ${endpoint.owner_slug}` : `provider ${endpoint.provider_code ?? "—"}`],
        ]}
      />
      {!endpoint.deleted && (
        <Can permission="endpoints.manage">
          <p>
            {STATUSES.filter((status) => status !== endpoint.status).map((status) => (
              <ConfirmDialog
                key={status}
                trigger={<Button variant="secondary">{status === "active" ? "Activate" : status === "suspended" ? "Suspend" : "Disable"} endpoint</Button>}
                title={`Set the endpoint ${status}`}
                description={
                  status === "active" ? "Deliveries that waited for it are re-enqueued." : "Its deliveries wait until it is active again; none fails for it."
                }
                actionLabel={`Set ${status}`}
                pending={setStatus.isPending}
                error={setStatus.error ? errorMessage(setStatus.error) : undefined}
                onConfirm={() => setStatus.mutateAsync({ id, status })}
              />
            ))}
          </p>
        </Can>
      )}
      <h3>Static headers</h3>
      {Object.keys(endpoint.static_headers).length ? <JsonView value={endpoint.static_headers} label="Static headers" /> : <p>None.</p>}
      {!endpoint.deleted && (
        <Can permission="endpoints.manage">
          <form
            onSubmit={(event) => {
              event.preventDefault();
              const at = header.indexOf(":");
              if (at < 1) return;
              setHeaders.mutate({ id, set: { [header.slice(0, at).trim()]: header.slice(at + 1).trim() } }, { onSuccess: () => setHeader("") });
            }}
          >
            <Field
              label={
                <>
                  Set a header (<code>Name: value</code>)
                </>
              }
            >
              {(control) => <Input {...control} value={header} onChange={(event) => setHeader(event.target.value)} maxLength={5000} autoComplete="off" />}
            </Field>
            <Button type="submit" variant="secondary" disabled={setHeaders.isPending}>
              Set header
            </Button>
            {Object.keys(endpoint.static_headers).map((name) => (
              <Button key={name} variant="ghost" size="small" onClick={() => setHeaders.mutate({ id, unset: [name] })}>
                Remove {name}
              </Button>
            ))}
            {setHeaders.error && <p role="alert">{errorMessage(setHeaders.error)}</p>}
          </form>
        </Can>
      )}
    </>
  );
}
