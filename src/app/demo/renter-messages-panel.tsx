"use client";

import type { DemoRenterMessage } from "@/features/demo/renter-messages";
import { usePolled } from "./use-polled";

const POLL_MS = 2_000;

/**
 * The demo renter's messages as they arrive (decisions §19), each as the renter sees it: the HTML in
 * a sandboxed frame (no script, no same origin) and the text part. Kept, not sent, without SMTP_URL.
 */
export function RenterMessagesPanel() {
  const { value: messages, problem } = usePolled("/demo/api/messages", (body) => (body as { messages: DemoRenterMessage[] }).messages, POLL_MS, "messages");

  return (
    <section className="demo-panel" aria-labelledby="renter-messages-heading">
      <h2 id="renter-messages-heading">Renter emails</h2>
      <p className="muted">What the demo renter is sent: policy, receipts, payment notices. Without an SMTP relay they are kept here and in the console.</p>
      {problem && <p role="status">{problem}</p>}
      {messages === null ? (
        <p>Loading…</p>
      ) : messages.length === 0 ? (
        <p>No emails yet.</p>
      ) : (
        <ol className="demo-deliveries" aria-label="Renter emails, newest first">
          {messages.map((message) => (
            <li key={message.id} data-kind={message.kind} data-status={message.status}>
              <details>
                <summary>
                  <span className="event">{message.subject}</span> <span className={`status status-${message.status}`}>{message.status}</span>{" "}
                  <time dateTime={message.created_at}>{new Date(message.created_at).toLocaleTimeString()}</time>
                </summary>
                <p className="muted">
                  To {message.to}
                  {message.last_answer ? ` · ${message.last_answer}` : ""}
                </p>
                {message.html ? <iframe className="demo-frame" title={`Email: ${message.subject}`} sandbox="" srcDoc={message.html} /> : <p>Being rendered…</p>}
                {message.text && <pre>{message.text}</pre>}
              </details>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
