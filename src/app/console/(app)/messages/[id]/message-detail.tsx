"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Button, Can, ConfirmDialog, errorMessage, Facts, formatDateTime, PageHeader, type Tab, Tabs, useConsoleMutation, useTRPC } from "../../../_ui";
import { KIND_LABELS } from "../kinds";
import { MessageStatus } from "../messages-table";

/**
 * One renter message as the renter sees it (decisions §19): the HTML in a sandboxed frame (no
 * script, no same origin: it cannot reach the console) and the text part; the SMTP server's last
 * answer; a resend for operators (audited).
 */
export function MessageDetail({ id }: { id: number }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { data: message, error } = useQuery(trpc.messages.detail.queryOptions({ id }, { refetchInterval: 5000 }));
  const resend = useConsoleMutation(trpc.messages.resend.mutationOptions(), { invalidates: [trpc.messages] });
  const back = { href: "/console/messages", label: "All messages" };
  if (error)
    return (
      <section>
        <PageHeader title="Message" back={back} />
        <p role="alert">{errorMessage(error)}</p>
      </section>
    );
  if (!message) return <p aria-busy="true">Loading…</p>;
  const resendable = message.status === "failed" || message.status === "sent" || message.status === "kept";
  const tabs: Tab[] = [
    {
      value: "html",
      label: "HTML",
      content: message.html ? (
        <iframe
          title={`Message ${message.id} as the renter sees it`}
          sandbox=""
          srcDoc={message.html}
          style={{ width: "100%", height: "42rem", border: "1px solid #d9dee7", borderRadius: 8, background: "#fff" }}
        />
      ) : (
        <p>Not rendered yet: the send task renders it.</p>
      ),
    },
    { value: "text", label: "Plain text", content: message.text ? <pre style={{ whiteSpace: "pre-wrap" }}>{message.text}</pre> : <p>Not rendered yet.</p> },
  ];
  return (
    <section>
      <PageHeader
        title={message.subject}
        back={back}
        actions={
          resendable && (
            <Can permission="messages.resend">
              <ConfirmDialog
                trigger={<Button>Resend</Button>}
                title="Resend this message"
                description={`A copy goes to ${message.to} with its own attempts; this message keeps its record.`}
                actionLabel="Resend now"
                pending={resend.isPending}
                error={resend.error ? errorMessage(resend.error) : undefined}
                onConfirm={async () => {
                  const copy = await resend.mutateAsync({ id });
                  router.push(`/console/messages/${copy.id}`);
                }}
              />
            </Can>
          )
        }
      />
      <Facts
        items={[
          ["Status", <MessageStatus key="s" status={message.status} />],
          ["To", message.to],
          ["Kind", KIND_LABELS[message.kind] ?? message.kind],
          ["Policy", message.policy_number ?? "—"],
          ["Owner", message.owner_name ?? "—"],
          ["Written", formatDateTime(message.created_at)],
          ["Sent", message.sent_at ? formatDateTime(message.sent_at) : "—"],
          ["Attempts", String(message.attempts)],
          ["Server's last answer", message.last_answer ? <code key="a">{message.last_answer}</code> : "—"],
          ["Next attempt", message.next_attempt_at ? formatDateTime(message.next_attempt_at) : "—"],
          ["Retried until", formatDateTime(message.give_up_at)],
          ["Message-ID", <code key="m">{message.message_id}</code>],
          [
            "Resent from",
            message.resent_from_id ? <Link key="r" href={`/console/messages/${message.resent_from_id}`}>{`Message ${message.resent_from_id}`}</Link> : "—",
          ],
          [
            "Resent as",
            message.resends.length
              ? message.resends.map((resent) => <Link key={resent} href={`/console/messages/${resent}`}>{`Message ${resent} `}</Link>)
              : "—",
          ],
        ]}
      />
      <h2>As the renter sees it</h2>
      <Tabs label="Message parts" tabs={tabs} />
    </section>
  );
}
