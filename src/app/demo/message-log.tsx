"use client";

import { type RefObject, useEffect, useState } from "react";

type Message = { at: string; origin: string; data: string };

/**
 * Every message the enrollment frame posts (decisions §10: `completed`, `declined` or `blocked`),
 * with its time and origin. Only the enrollment host's messages from the frame are accepted, as a
 * partner's page should.
 */
export function MessageLog({ enrollmentOrigin, frame }: { enrollmentOrigin: string; frame: RefObject<HTMLIFrameElement | null> }) {
  const [messages, setMessages] = useState<Message[]>([]);

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== enrollmentOrigin || event.source !== frame.current?.contentWindow) return;
      const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
      setMessages((before) => [...before, { at: new Date().toISOString(), origin: event.origin, data }]);
    };
    window.addEventListener("message", onMessage);
    return () => window.removeEventListener("message", onMessage);
  }, [enrollmentOrigin, frame]);

  return (
    <section className="demo-panel" aria-labelledby="messages-heading">
      <h2 id="messages-heading">Messages from the frame</h2>
      <p className="muted">
        Accepted from <code>{enrollmentOrigin}</code> only.
      </p>
      <div aria-live="polite">
        {messages.length === 0 ? (
          <p>No message yet: the flow posts its final state when the renter reaches it.</p>
        ) : (
          <ol className="demo-messages" aria-label="Messages, oldest first">
            {messages.map((message) => (
              <li key={`${message.at}-${message.data}`} data-message={message.data}>
                <time dateTime={message.at}>{new Date(message.at).toLocaleTimeString()}</time> <code>{message.origin}</code> <strong>{message.data}</strong>
              </li>
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}
