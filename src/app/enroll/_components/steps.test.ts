import { AppRouterContext } from "next/dist/shared/lib/app-router-context.shared-runtime";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { FlowView } from "@/features/enrollment/flow/contract";
import { ChooseFields } from "./choose-form";
import { DetailsFields } from "./details-form";
import type { FormState } from "./form-state";
import { optionChoices } from "./format";
import { PayFields } from "./pay-form";
import { framingOrigin } from "./post-result";
import { type FlowActions, FlowStep } from "./steps";
import { chooseView, detailsView, guaranteeChooseView, payView, quoteView, resultView } from "./test-fixtures";

const noop = async (): Promise<FormState> => ({ status: "idle" });
const actions: FlowActions = { submitDetails: noop, chooseProduct: noop, changeChoice: noop, payEnrollment: noop, payWithToken: noop };
const router = { refresh() {}, push() {}, replace() {}, back() {}, forward() {}, prefetch() {}, hmrRefresh() {} };

/** The markup of a step as the server renders it (React escapes text and attribute values). */
function render(view: FlowView): string {
  return renderToStaticMarkup(createElement(AppRouterContext.Provider, { value: router as never }, createElement(FlowStep, { view, actions })));
}

type Tag = { name: string; attrs: Record<string, string> };

/** Opening tags of the markup with their attributes, names lowercased as HTML reads them (enough for React's well-formed output). */
function tags(html: string): Tag[] {
  return [...html.matchAll(/<([a-z0-9]+)((?:\s+[^\s=>]+(?:="[^"]*")?)*)\s*\/?>/g)].map((m) => ({
    name: m[1],
    attrs: Object.fromEntries([...m[2].matchAll(/([^\s=]+)(?:="([^"]*)")?/g)].map((a) => [a[1].toLowerCase(), a[2] ?? ""])),
  }));
}

const text = (s: string) =>
  s
    .replace(/<[^>]+>/g, "")
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();

/** The input labelled exactly `label`, with its attributes. */
function input(html: string, label: string): Record<string, string> {
  const id = [...html.matchAll(/<label[^>]*for="([^"]+)"[^>]*>(.*?)<\/label>/g)].find((m) => text(m[2]) === label)?.[1];
  const found = tags(html).find((t) => (t.name === "input" || t.name === "select") && t.attrs.id === id);
  if (!found) throw new Error(`no input labelled "${label}"`);
  return found.attrs;
}

function h1(html: string): string | undefined {
  const m = html.match(/<h1[^>]*>(.*?)<\/h1>/);
  return m ? text(m[1]) : undefined;
}

function main(html: string): Record<string, string> {
  return tags(html).find((t) => t.name === "main")?.attrs ?? {};
}

describe("enrollment steps (ui-contract names and markers)", () => {
  it("details: heading, labelled fields with the prospect's values, read-only email, the disclosures checkbox", () => {
    const html = render(detailsView);
    expect(main(html)["data-step"]).toBe("details");
    expect(h1(html)).toBe("Confirm your details");
    expect(input(html, "First name")).toMatchObject({ name: "firstName", value: "Maya", autocomplete: "given-name" });
    expect(input(html, "Last name")).toMatchObject({ name: "lastName", value: "Lopez" });
    expect(input(html, "Email")).toMatchObject({ value: "maya@example.com", readonly: "" });
    expect(input(html, "Phone")).toMatchObject({ name: "phone", type: "tel", value: "5125550100", "aria-describedby": "phone-hint" });
    expect(input(html, "Date of birth")).toMatchObject({ name: "birthdate", type: "date", value: "1994-05-17" });
    expect(input(html, "I have read and accept the disclosures")).toMatchObject({ name: "acceptDisclosures", type: "checkbox" });
    expect(html).toContain("Deposit insurance replaces your cash security deposit");
    expect(
      tags(html)
        .filter((t) => t.name === "button")
        .map((t) => t.attrs.type),
    ).toEqual(["submit"]);
    expect(html).toMatch(/<button[^>]*>Continue<\/button>/);
    expect(html).toContain("+decline");
  });

  it("details: no staging hint in production", () => {
    expect(render({ ...detailsView, staging: false })).not.toContain("+decline");
  });

  it("every step shows the lease: owner, address, unit", () => {
    for (const view of [detailsView, quoteView, chooseView, payView, resultView] as FlowView[]) {
      const html = render(view);
      expect(html).toContain("Barton Creek Living");
      expect(html).toContain("1200 Barton Springs Rd, Austin, TX 78704");
      expect(html).toContain("Apt 4B");
    }
  });

  it("the progress marks the current step", () => {
    const html = render(payView);
    expect(html).toMatch(/<li aria-current="step">Payment<\/li>/);
    expect(html).toContain("Step 3 of 4");
  });

  it("quote: heading, refreshes itself, with a no-script fallback", () => {
    const html = render(quoteView);
    expect(main(html)["data-step"]).toBe("quote");
    expect(h1(html)).toBe("Checking your options");
    expect(html).toContain('<noscript><meta http-equiv="refresh" content="2"/></noscript>');
  });

  it("choose: one radio per offer and cadence, exactly labelled, described by its price, preselected", () => {
    const html = render(chooseView);
    expect(main(html)["data-step"]).toBe("choose");
    expect(h1(html)).toBe("Choose your option");
    expect(html).toMatch(/<legend[^>]*>Your options<\/legend>/);
    const upfront = input(html, "Deposit insurance, paid upfront");
    const monthly = input(html, "Deposit insurance, paid monthly");
    const cash = input(html, "Cash deposit");
    expect(upfront).toMatchObject({ type: "radio", name: "choice", value: "security_deposit_insurance:upfront" });
    expect(upfront.checked).toBeUndefined();
    expect(monthly.checked).toBe("");
    expect(cash.value).toBe("cash_deposit");
    const description = (attrs: Record<string, string>) => text(html.match(new RegExp(`<p id="${attrs["aria-describedby"]}"[^>]*>(.*?)</p>`))?.[1] ?? "");
    expect(description(upfront)).toMatch(/^\$175\.00 once/);
    expect(description(monthly)).toMatch(/^\$15\.00 a month/);
    expect(description(cash)).toMatch(/^\$1,500\.00/);
    expect(html).not.toContain("Lease guarantee");
    expect(html).toMatch(/<button[^>]*>Continue to payment<\/button>/);
  });

  it("choose: the guarantee product's two cadences", () => {
    const html = render(guaranteeChooseView);
    expect(input(html, "Lease guarantee, paid upfront").value).toBe("renter_guarantee_insurance:upfront");
    expect(input(html, "Lease guarantee, paid monthly").value).toBe("renter_guarantee_insurance:monthly");
    expect(html).not.toContain("Deposit insurance");
  });

  it("pay: card fields with their autocomplete values, the amount on the button, change option", () => {
    const html = render(payView);
    expect(main(html)["data-step"]).toBe("pay");
    expect(h1(html)).toBe("Payment");
    expect(input(html, "Name on card")).toMatchObject({ autocomplete: "cc-name" });
    expect(input(html, "Card number")).toMatchObject({ autocomplete: "cc-number", inputmode: "numeric", name: "number" });
    expect(input(html, "Expiry date")).toMatchObject({ autocomplete: "cc-exp", name: "expiry" });
    expect(input(html, "Security code")).toMatchObject({ autocomplete: "cc-csc", name: "cvc" });
    expect(input(html, "ZIP code")).toMatchObject({ autocomplete: "postal-code", name: "postalCode" });
    expect(tags(html).find((t) => t.attrs.name === "attempt")?.attrs.value).toBe("a-1");
    expect(html).toMatch(/<button[^>]*>Pay \$175\.00<\/button>/);
    expect(html).toMatch(/<button[^>]*>Change option<\/button>/);
    expect(html).toContain("4242 4242 4242 4242");
  });

  it("pay through Stripe (decisions §18): the markers on <main>, no card field of ours, the secure form loading", () => {
    const stripe = {
      publishableKey: "pk_test_x",
      intentId: "pi_123",
      clientSecret: "pi_123_secret_abc",
      returnUrl: "https://enroll.example/embedded/o/s/1?sig=x",
    };
    const html = render({ ...payView, staging: false, stripe });
    expect(main(html)).toMatchObject({ "data-step": "pay", "data-processor": "stripe", "data-payment-intent": "pi_123" });
    expect(html).not.toContain("Card number");
    expect(html).not.toContain('autocomplete="cc-number"');
    expect(html).toContain("Loading the secure card form");
    // Without Stripe the markers are absent.
    expect(main(render(payView))["data-processor"]).toBeUndefined();
  });

  it("pay: a cash deposit through Stripe says why it can't be paid here", () => {
    const html = render({ ...payView, paymentAvailable: false, unavailableMessage: "A cash deposit can't be paid online yet" });
    expect(html).toMatch(/<p role="status"[^>]*>A cash deposit can&#x27;t be paid online yet/);
  });

  it("pay: production without a processor shows no card form, a status instead", () => {
    const html = render({ ...payView, paymentAvailable: false, staging: false });
    expect(html).not.toContain("Card number");
    expect(html).toMatch(/<p role="status"[^>]*>Payment isn&#x27;t available yet/);
    expect(html).not.toContain("4242");
  });

  it("result completed: heading, policy number, documents link, the state marker", () => {
    const html = render(resultView);
    expect(main(html)).toMatchObject({ "data-step": "result", "data-enrollment-state": "completed" });
    expect(h1(html)).toBe("You’re covered".replace("’", "'"));
    expect(html).toMatch(/data-testid="policy-number"[^>]*>SDI-2026-000123</);
    expect(html).toMatch(/<a href="\/documents\/abc.zip"[^>]*>Download your policy documents<\/a>/);
    expect(html).not.toContain("noscript");
  });

  it("result completed before the archive is built: refreshes itself, no link yet", () => {
    const html = render({ ...resultView, documentsUrl: undefined });
    expect(html).not.toContain("Download your policy documents");
    expect(html).toContain('<meta http-equiv="refresh" content="2"/>');
  });

  it("result: a cash deposit, a decline, a block", () => {
    const cash = render({ ...resultView, productType: "cash_deposit", policyNumber: undefined, documentsUrl: undefined });
    expect(h1(cash)).toBe("Your deposit is recorded");
    expect(cash).not.toContain("policy-number");
    expect(cash).not.toContain("noscript");
    const declined = render({ ...resultView, state: "declined", policyNumber: undefined, documentsUrl: undefined, message: "Not this time." });
    expect(main(declined)["data-enrollment-state"]).toBe("declined");
    expect(h1(declined)).toBe("We couldn't offer coverage");
    const blocked = render({ ...resultView, state: "blocked", policyNumber: undefined, documentsUrl: undefined, message: "Identity check failed." });
    expect(main(blocked)["data-enrollment-state"]).toBe("blocked");
    expect(h1(blocked)).toBe("We can't continue your enrollment");
    expect(blocked).toContain("Identity check failed.");
  });

  it("headings receive focus when the step changes (focusable, not in the tab order)", () => {
    expect(render(detailsView)).toMatch(/<h1 tabindex="-1"/);
  });
});

describe("a step's form after an error answer", () => {
  /** Every `aria-describedby` id points at an element of the markup. */
  function expectDescriptionsExist(html: string) {
    const ids = new Set(tags(html).flatMap((t) => (t.attrs.id ? [t.attrs.id] : [])));
    for (const t of tags(html)) for (const id of (t.attrs["aria-describedby"] ?? "").split(" ").filter(Boolean)) expect(ids).toContain(id);
  }

  it("details: errors beside their fields (aria-invalid, aria-describedby), a summary, what was typed kept", () => {
    const state: FormState = {
      status: "error",
      message: "Please check the highlighted fields.",
      fields: { phone: ["Enter a 10-digit phone number."], acceptDisclosures: ["Accept the disclosures to continue."] },
      values: { firstName: "Maya", lastName: "Lopez-Garcia", phone: "512", birthdate: "1994-05-17", acceptDisclosures: "" },
    };
    const html = renderToStaticMarkup(
      createElement(DetailsFields, { state, values: detailsView.values, disclosures: detailsView.disclosures, pending: false }),
    );
    expect(html).toMatch(
      /<div role="alert"[^>]*><p[^>]*>Please check the highlighted fields\.<\/p><ul><li><a href="#phone">Enter a 10-digit phone number\.<\/a>/,
    );
    expect(html).toContain('<a href="#acceptDisclosures">Accept the disclosures to continue.</a>');
    expect(input(html, "Phone")).toMatchObject({ value: "512", "aria-invalid": "true", "aria-describedby": "phone-hint phone-error" });
    expect(html).toMatch(/<p id="phone-error"[^>]*>Enter a 10-digit phone number\.<\/p>/);
    expect(input(html, "Last name")).toMatchObject({ value: "Lopez-Garcia" });
    expect(input(html, "Last name")["aria-invalid"]).toBeUndefined();
    expect(input(html, "I have read and accept the disclosures")).toMatchObject({ "aria-invalid": "true", "aria-describedby": "acceptDisclosures-error" });
    expect(input(html, "I have read and accept the disclosures").checked).toBeUndefined();
    expect(html.match(/role="alert"/g)).toHaveLength(1);
    expectDescriptionsExist(html);
  });

  it("details: a ticked checkbox stays ticked", () => {
    const state: FormState = { status: "error", message: "x", fields: { phone: ["y"] }, values: { acceptDisclosures: "on" } };
    const html = renderToStaticMarkup(createElement(DetailsFields, { state, values: detailsView.values, disclosures: [], pending: false }));
    expect(input(html, "I have read and accept the disclosures").checked).toBe("");
  });

  it("choose: the error is tied to the group and the renter's pick is kept", () => {
    const choices = optionChoices(chooseView.offers);
    const state: FormState = {
      status: "error",
      message: "Choose an option.",
      fields: { productType: ["Choose one of your options."] },
      values: { choice: "cash_deposit" },
    };
    const html = renderToStaticMarkup(createElement(ChooseFields, { state, choices, preselected: "security_deposit_insurance:monthly", pending: false }));
    expect(html).toMatch(/<fieldset[^>]*aria-describedby="choice-error"/);
    expect(input(html, "Cash deposit").checked).toBe("");
    expect(input(html, "Deposit insurance, paid monthly").checked).toBeUndefined();
    expectDescriptionsExist(html);
  });

  it("pay: a declined card is announced; the number and code are empty, the rest kept, a new attempt", () => {
    const state: FormState = {
      status: "error",
      message: "Your card was declined. Try another card.",
      fields: { number: ["Your card was declined."] },
      values: { nameOnCard: "Maya Lopez", expiry: "12/30", postalCode: "78704" },
      attempt: "a-2",
    };
    const html = renderToStaticMarkup(createElement(PayFields, { state, payLabel: "Pay $175.00", attempt: "a-1", pending: false }));
    expect(html).toMatch(/<div role="alert"[^>]*><p[^>]*>Your card was declined/);
    expect(input(html, "Card number")).toMatchObject({ "aria-invalid": "true", "aria-describedby": "number-error" });
    expect(input(html, "Card number").value).toBeUndefined();
    expect(input(html, "Security code").value).toBeUndefined();
    expect(input(html, "Name on card").value).toBe("Maya Lopez");
    expect(input(html, "Expiry date").value).toBe("12/30");
    expect(input(html, "ZIP code").value).toBe("78704");
    expect(tags(html).find((t) => t.attrs.name === "attempt")?.attrs.value).toBe("a-2");
    expectDescriptionsExist(html);
  });

  it("a field error the form has no field for still shows in the summary", () => {
    const state: FormState = { status: "error", message: "We couldn't save your details.", fields: { email: ["This email is already enrolled."] }, values: {} };
    const html = renderToStaticMarkup(createElement(DetailsFields, { state, values: detailsView.values, disclosures: [], pending: false }));
    expect(html).toContain("<li>This email is already enrolled.</li>");
  });
});

describe("framingOrigin (the embedded result's message target)", () => {
  it("prefers the first ancestor origin", () => {
    expect(framingOrigin({ ancestorOrigins: { length: 2, 0: "https://portal.example.com", 1: "https://x.example" } }, "https://other.example/page")).toBe(
      "https://portal.example.com",
    );
  });
  it("falls back to the referrer's origin, else nothing", () => {
    expect(framingOrigin({}, "https://portal.example.com/leases/1?x=1")).toBe("https://portal.example.com");
    expect(framingOrigin({ ancestorOrigins: { length: 0 } }, "")).toBeNull();
    expect(framingOrigin({}, "not a url")).toBeNull();
  });
});
