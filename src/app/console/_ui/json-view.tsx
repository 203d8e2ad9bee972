"use client";
import { Fragment, type ReactNode, useState } from "react";
import { Button } from "./button";
import styles from "./ui.module.css";

/** Colours the tokens of pretty-printed JSON (keys, strings, numbers, literals); the text stays exact. */
function highlight(json: string): ReactNode[] {
  const out: ReactNode[] = [];
  const token = /("(?:\\.|[^"\\])*")(\s*:)?|\b(true|false|null)\b|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/g;
  let last = 0;
  let i = 0;
  for (let match = token.exec(json); match; match = token.exec(json)) {
    if (match.index > last) out.push(<Fragment key={i++}>{json.slice(last, match.index)}</Fragment>);
    const [text, str, colon, literal] = match;
    const kind = str ? (colon ? styles.jsonKey : styles.jsonString) : literal ? styles.jsonLiteral : styles.jsonNumber;
    out.push(
      <span key={i++} className={kind}>
        {str && colon ? str : text}
      </span>,
    );
    if (str && colon) out.push(<Fragment key={i++}>{colon}</Fragment>);
    last = match.index + text.length;
  }
  if (last < json.length) out.push(<Fragment key={i++}>{json.slice(last)}</Fragment>);
  return out;
}

/**
 * A payload as JSON, pretty-printed, with a copy button. Give `raw` (the exact bytes sent) when the
 * exact text matters: it is shown as is when it is not JSON.
 */
export function JsonView({ value, raw, label = "JSON" }: { value?: unknown; raw?: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  let text: string;
  if (raw !== undefined) {
    try {
      text = JSON.stringify(JSON.parse(raw), null, 2);
    } catch {
      text = raw;
    }
  } else text = value === undefined ? "" : JSON.stringify(value, null, 2);
  const copy = raw ?? text;
  return (
    <figure className={styles.json}>
      <figcaption>
        <span>{label}</span>
        <Button
          variant="ghost"
          size="small"
          onClick={async () => {
            await navigator.clipboard?.writeText(copy);
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </Button>
      </figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section className={styles.jsonBody} aria-label={label} tabIndex={0}>
        <pre>
          <code>{text.length > 200_000 ? text : highlight(text)}</code>
        </pre>
      </section>
    </figure>
  );
}
