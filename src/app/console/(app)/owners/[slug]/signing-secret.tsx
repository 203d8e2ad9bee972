"use client";
import { useState } from "react";
import { Button, ConfirmDialog, errorMessage, formatDateTime, useConsoleMutation, useTRPC } from "../../../_ui";

/**
 * The owner's webhook signing secret (spec Webhook signing secret): hidden until revealed — an
 * explicit, audited action — and kept only in this component's state, so it is gone once hidden or
 * once the page is left. Rotation shows the new secret the same way.
 */
export function SigningSecret({ slug, previousValidUntil }: { slug: string; previousValidUntil: string | null }) {
  const trpc = useTRPC();
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  // A reveal changes nothing but is audited: the audit log is refreshed all the same.
  const reveal = useConsoleMutation(trpc.owners.revealSecret.mutationOptions(), { invalidates: [], onSuccess: (answer) => setSecret(answer.signing_secret) });
  const rotate = useConsoleMutation(trpc.owners.rotateSecret.mutationOptions(), {
    invalidates: [trpc.owners],
    onSuccess: (answer) => {
      setSecret(answer.signing_secret);
      setCopied(false);
    },
  });
  const copy = async () => {
    if (!secret) return;
    await navigator.clipboard?.writeText(secret).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <section className="access-form" aria-labelledby="signing-secret-title">
      <h2 id="signing-secret-title">Webhook signing secret</h2>
      <p className="hint">Deliveries to this owner's endpoints are signed with it. Revealing it is recorded in the audit log.</p>
      {secret ? (
        <div className="secret-box">
          <code className="secret" data-testid="signing-secret">
            {secret}
          </code>
          <div className="row-actions">
            <Button variant="secondary" size="small" onClick={copy}>
              {copied ? "Copied" : "Copy"}
            </Button>
            <Button
              variant="secondary"
              size="small"
              onClick={() => {
                setSecret(null);
                setCopied(false);
              }}
            >
              Hide
            </Button>
          </div>
        </div>
      ) : (
        <p>
          <code className="secret">whsec_••••••••••••••••</code>
        </p>
      )}
      {previousValidUntil && <p role="status">The previous secret is still signed with until {formatDateTime(previousValidUntil)}.</p>}
      {reveal.error && (
        <p role="alert" className="error">
          {errorMessage(reveal.error)}
        </p>
      )}
      <div className="row-actions">
        {!secret && (
          <Button variant="secondary" onClick={() => reveal.mutate({ slug })} disabled={reveal.isPending} aria-busy={reveal.isPending || undefined}>
            {reveal.isPending ? "Revealing…" : "Reveal secret"}
          </Button>
        )}
        <ConfirmDialog
          trigger={<Button variant="danger">Rotate secret</Button>}
          title="Rotate the signing secret?"
          description="A new secret is made now. The current one stays valid beside it for 24 hours, so receivers can switch over; deliveries carry both signatures until then. A secret replaced by an earlier rotation stops being valid at once."
          actionLabel="Rotate"
          danger
          pending={rotate.isPending}
          error={rotate.error ? errorMessage(rotate.error) : undefined}
          onConfirm={() => rotate.mutateAsync({ slug })}
        />
      </div>
    </section>
  );
}
