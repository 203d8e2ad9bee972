import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import type { ReactNode } from "react";

/**
 * The frame of every renter message, in the enrollment pages' look (`src/app/enroll/_components/
 * enroll.module.css`): the owner's name as the header, a white card on a pale page, one accent
 * colour. Inline styles only (mail clients drop style sheets); no images, so no tracking pixel and
 * nothing fetched when the message is opened (decisions §19).
 */
const colors = { ink: "#1d2330", muted: "#4d5566", line: "#d9dee7", accent: "#2456c9", page: "#f7f8fb" };
const font = 'system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif';

export function MessageLayout({ preview, ownerName, heading, children }: { preview: string; ownerName?: string; heading: string; children: ReactNode }) {
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <title>{heading}</title>
      </Head>
      <Preview>{preview}</Preview>
      <Body style={{ backgroundColor: colors.page, color: colors.ink, fontFamily: font, margin: 0, padding: "24px 0" }}>
        <Container style={{ maxWidth: "560px", margin: "0 auto" }}>
          <Section style={{ padding: "0 16px 12px" }}>
            <Text style={{ fontSize: "17px", fontWeight: 700, margin: 0 }}>{ownerName ?? "Your renter account"}</Text>
            <Text style={{ fontSize: "14px", color: colors.muted, margin: 0 }}>Deposit alternatives for your lease</Text>
          </Section>
          <Section style={{ backgroundColor: "#ffffff", border: `1px solid ${colors.line}`, borderRadius: "10px", padding: "20px 24px" }}>
            <Heading as="h1" style={{ fontSize: "22px", lineHeight: "28px", margin: "0 0 12px" }}>
              {heading}
            </Heading>
            {children}
          </Section>
          <Section style={{ padding: "12px 16px" }}>
            <Text style={{ fontSize: "13px", color: colors.muted, margin: 0 }}>
              You receive this message because of your rental insurance{ownerName ? ` with ${ownerName}` : ""}. It is sent from an address that does not read
              replies.
            </Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

export function Paragraph({ children }: { children: ReactNode }) {
  return <Text style={{ fontSize: "15px", lineHeight: "22px", margin: "0 0 12px" }}>{children}</Text>;
}

/** A figure of the policy, label and value on one line (in the text part too). */
export function Figures({ rows }: { rows: readonly (readonly [string, string])[] }) {
  return (
    <Section style={{ margin: "4px 0 16px" }}>
      {rows.map(([label, value]) => (
        <Text key={label} style={{ fontSize: "15px", lineHeight: "22px", margin: "0 0 4px" }}>
          <span style={{ color: colors.muted }}>{label}: </span>
          <strong>{value}</strong>
        </Text>
      ))}
    </Section>
  );
}

/** The message's main link as a button; its address also printed, for clients that hide buttons. */
export function Action({ href, children }: { href: string; children: string }) {
  return (
    <Section style={{ margin: "8px 0 16px" }}>
      <Button
        href={href}
        style={{ backgroundColor: colors.accent, color: "#ffffff", borderRadius: "6px", padding: "10px 18px", fontSize: "15px", fontWeight: 600 }}
      >
        {children}
      </Button>
      {/* The text part has the link beside the button's words already. */}
      <Text data-skip-in-text="true" style={{ fontSize: "13px", color: colors.muted, margin: "8px 0 0", wordBreak: "break-all" }}>
        {href}
      </Text>
    </Section>
  );
}

export function Rule() {
  return <Hr style={{ borderColor: colors.line, margin: "16px 0" }} />;
}
