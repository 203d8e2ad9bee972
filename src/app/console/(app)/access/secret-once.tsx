"use client";
import { useId, useState } from "react";
import { Button } from "../../_ui";
import css from "./access.module.css";

/**
 * A client secret, shown once right after create or rotation: the service keeps only its hash and
 * a sealed copy it never shows again, so the page holds it in memory only until `onDone`.
 */
export function SecretOnce({
  clientId,
  secret,
  onDone,
  doneLabel = "I have stored it",
}: {
  clientId: string;
  secret: string;
  onDone: () => void;
  doneLabel?: string;
}) {
  const id = useId();
  const [copied, setCopied] = useState<"yes" | "no" | "">("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied("yes");
    } catch {
      // No clipboard (an insecure origin, a refused permission): the field is selected for Ctrl+C.
      (document.getElementById(id) as HTMLInputElement | null)?.select();
      setCopied("no");
    }
  };
  return (
    <section className={css.secret} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Client secret</h2>
      <p>
        <strong>Copy this secret now: you will not see it again.</strong> The service cannot show it later; if it is lost, rotate the secret.
      </p>
      <p>
        Client id <code>{clientId}</code>
      </p>
      <label htmlFor={id}>Secret</label>
      <input id={id} className={css.secretValue} readOnly value={secret} onFocus={(event) => event.currentTarget.select()} spellCheck={false} />
      <div className={css.buttons}>
        <Button onClick={copy}>Copy secret</Button>
        <Button variant="secondary" onClick={onDone}>
          {doneLabel}
        </Button>
      </div>
      <output aria-live="polite">
        {copied === "yes" ? "Copied to the clipboard." : copied === "no" ? "Copy is not available here: the secret is selected, press Ctrl+C." : ""}
      </output>
    </section>
  );
}
