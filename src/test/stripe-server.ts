import { createHash, randomBytes } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { invalid, type Json, missing, nowSeconds, StripeError, stripeId } from "./stripe-server-common";
import { type RefundsAndDisputes, refundsAndDisputes } from "./stripe-server-refunds";
import { setupIntentsOf } from "./stripe-server-setup";

/**
 * A local Stripe-compatible server for the tests (docs/decisions.md, Payments through Stripe: the
 * tests' Stripe). It speaks the parts of Stripe's REST API the adapter uses, as Stripe documents
 * them and as the `stripe` SDK's TypeScript types describe the objects: form-encoded bodies with
 * bracketed keys, `Authorization: Bearer sk_…`, `Idempotency-Key` replay (the same key and parameters
 * answer the first answer with `Idempotent-Replayed: true`; other parameters: 400 `idempotency_error`),
 * `Stripe-Version` kept and echoed, Stripe's error shape (`{error: {type, code, decline_code, message,
 * payment_intent}}`) with its decline codes, `requires_action` with `next_action.redirect_to_url`.
 * It keeps every request it was asked (`requests`) and every object, and sends signed webhooks
 * (`stripe.webhooks.generateTestHeaderString`) when told to (`deliver`), so a test decides their order.
 *
 * It is no substitute for Stripe's test mode (docs/operations.md, Testing in Stripe's test mode).
 *
 * Test payment methods are Stripe's own names (https://docs.stripe.com/testing#cards):
 * `pm_card_visa` pays; `pm_card_chargeDeclined` declines (`card_declined`/`generic_decline`);
 * `pm_card_chargeDeclinedInsufficientFunds` (`insufficient_funds`); `pm_card_authenticationRequired`
 * asks for 3-D Secure on every payment (off-session: `authentication_required`);
 * `pm_card_authenticationRequiredOnSetup` asks once on the first payment, then pays off-session;
 * `pm_card_processing` (ours) stays `processing` until `settle`. A ConfirmationToken is made from one
 * with `POST /v1/test_helpers/confirmation_tokens` (Stripe's own test helper).
 *
 * SetupIntents (`./stripe-server-setup.ts`), 3-D Secure included, on the same 3-D Secure page.
 * Refunds and disputes (`./stripe-server-refunds.ts`): refunds through the API, disputes opened and
 * moved by the test (`openDispute`, `setDisputeStatus`), each with the events Stripe sends.
 */

type TestCard = { brand: string; last4: string; behaviour: "pays" | "declines" | "insufficient" | "always3ds" | "setup3ds" | "processing" };

const TEST_CARDS: Record<string, TestCard> = {
  pm_card_visa: { brand: "visa", last4: "4242", behaviour: "pays" },
  pm_card_mastercard: { brand: "mastercard", last4: "4444", behaviour: "pays" },
  pm_card_chargeDeclined: { brand: "visa", last4: "0002", behaviour: "declines" },
  pm_card_chargeDeclinedInsufficientFunds: { brand: "visa", last4: "9995", behaviour: "insufficient" },
  pm_card_authenticationRequired: { brand: "visa", last4: "3184", behaviour: "always3ds" },
  pm_card_authenticationRequiredOnSetup: { brand: "visa", last4: "3155", behaviour: "setup3ds" },
  pm_card_processing: { brand: "visa", last4: "0077", behaviour: "processing" },
};

export type RecordedRequest = { method: string; path: string; params: Json; headers: Record<string, string | undefined> };
export type SentWebhook = { event: Json; status: number; body: string };

type PaymentMethodRecord = { id: string; card: TestCard; customer: string | null; setupDone: boolean };
type IntentRecord = {
  object: Json;
  clientSecret: string;
  returnUrl: string | null;
};

const id = stripeId;
const now = nowSeconds;

/** Stripe's bracketed form keys (`metadata[application]`, `payment_method_types[0]`) into nested objects. */
export function decodeForm(body: string): Json {
  const out: Json = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const parts = rawKey.split("[").map((part, index) => (index === 0 ? part : part.replace(/\]$/, "")));
    let node: Json = out;
    parts.forEach((part, index) => {
      if (index === parts.length - 1) node[part] = value;
      else {
        node[part] ??= {};
        node = node[part] as Json;
      }
    });
  }
  return out;
}

export type StripeTestServer = Omit<RefundsAndDisputes, "route"> & {
  /** `http://127.0.0.1:<port>`: the value of `STRIPE_API_BASE`. */
  url: string;
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  requests: RecordedRequest[];
  /** Events made so far, oldest first (also those not delivered). */
  events: Json[];
  intents: Map<string, IntentRecord>;
  /** SetupIntents (`seti_…`): a card saved on a customer without a payment (a monthly policy's new card). */
  setupIntents: Map<string, Json>;
  customers: Map<string, Json>;
  /** Signs and POSTs an event (by id, or the newest of a type for an intent) to `webhookUrl`; answers what came back. */
  deliver(eventId: string, options?: { signature?: string; body?: string }): Promise<SentWebhook>;
  /** The newest event of a type about an object id. */
  eventFor(type: string, objectId: string): Json | undefined;
  /** The 3-D Secure page's outcome: `true` authenticates (the intent pays), `false` fails it (`requires_payment_method`). */
  authenticate(intentId: string, pass: boolean): void;
  /** The 3-D Secure page's outcome for a SetupIntent (`./stripe-server-setup.ts`): `true` saves the card, `false` fails the setup. */
  authenticateSetup(setupId: string, pass: boolean): void;
  /** A `processing` intent settles: `true` succeeds, `false` fails. */
  settle(intentId: string, pass: boolean): void;
  /** Makes a ConfirmationToken of a test payment method (as Stripe's test helper does). */
  confirmationToken(paymentMethod: string): string;
  webhookUrl: string | undefined;
  /** The next off-session confirmation declines (`card_declined`), once: a saved card that stopped paying. */
  declineNextOffSession: boolean;
  close(): Promise<void>;
};

/** Starts the server on an ephemeral port of 127.0.0.1. `webhookUrl` can be set later. */
export async function startStripeServer(options: { webhookUrl?: string } = {}): Promise<StripeTestServer> {
  const secretKey = `sk_test_${randomBytes(12).toString("hex")}`;
  const publishableKey = `pk_test_${randomBytes(12).toString("hex")}`;
  const webhookSecret = `whsec_${randomBytes(24).toString("base64url").replace(/[-_]/g, "x")}`;
  const requests: RecordedRequest[] = [];
  const events: Json[] = [];
  const intents = new Map<string, IntentRecord>();
  const customers = new Map<string, Json>();
  const methods = new Map<string, PaymentMethodRecord>();
  const charges = new Map<string, Json>();
  const confirmationTokens = new Map<string, string>();
  const idempotency = new Map<string, { fingerprint: string; status: number; body: string }>();
  let url = "";
  const money = refundsAndDisputes({ intents, charges, emit: (type, object) => emit(type, object) });
  const setup = setupIntentsOf({
    customers,
    methodOf: (source, customer) => methodOf(source, customer),
    methodJson: (method) => methodJson(method as PaymentMethodRecord),
    methodById: (methodId) => methods.get(methodId),
    emit: (type, object) => emit(type, object),
    url: () => url,
  });

  function emit(type: string, object: Json): void {
    events.push({
      id: id("evt"),
      object: "event",
      api_version: Stripe.API_VERSION,
      created: now(),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object: structuredClone(object) },
    });
  }

  function methodOf(value: string, customer: string | null): PaymentMethodRecord {
    const fromToken = confirmationTokens.get(value);
    const name = fromToken ?? value;
    const known = methods.get(name);
    if (known) return known;
    const card = TEST_CARDS[name];
    if (!card) throw missing("payment_method", value);
    // Confirming with a test method makes a new method, as Stripe does (`pm_card_visa` → `pm_…`).
    const record: PaymentMethodRecord = { id: id("pm"), card, customer, setupDone: false };
    methods.set(record.id, record);
    return record;
  }

  function methodJson(method: PaymentMethodRecord): Json {
    return {
      id: method.id,
      object: "payment_method",
      type: "card",
      customer: method.customer,
      card: { brand: method.card.brand, last4: method.card.last4, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, funding: "credit", country: "US" },
      created: now(),
      livemode: false,
      metadata: {},
    };
  }

  function charge(intent: IntentRecord, method: PaymentMethodRecord, paid: boolean, failure?: { code: string; message: string }): Json {
    const object = intent.object;
    const chargeJson: Json = {
      id: id("ch"),
      object: "charge",
      amount: object.amount,
      amount_captured: paid ? object.amount : 0,
      amount_refunded: 0,
      currency: object.currency,
      customer: object.customer,
      paid,
      captured: paid,
      refunded: false,
      disputed: false,
      status: paid ? "succeeded" : "failed",
      failure_code: failure?.code ?? null,
      failure_message: failure?.message ?? null,
      payment_intent: object.id,
      payment_method: method.id,
      payment_method_details: {
        type: "card",
        card: { brand: method.card.brand, last4: method.card.last4, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3 },
      },
      metadata: object.metadata,
      created: now(),
      livemode: false,
    };
    charges.set(chargeJson.id as string, chargeJson);
    object.latest_charge = chargeJson.id;
    return chargeJson;
  }

  function decline(intent: IntentRecord, method: PaymentMethodRecord, code: string, declineCode: string, message: string): never {
    const object = intent.object;
    const failed = charge(intent, method, false, { code, message });
    object.status = "requires_payment_method";
    object.payment_method = null;
    object.last_payment_error = { type: "card_error", code, decline_code: declineCode, message, charge: failed.id, payment_method: methodJson(method) };
    emit("payment_intent.payment_failed", object);
    throw new StripeError(402, {
      type: "card_error",
      code,
      decline_code: declineCode,
      message,
      charge: failed.id,
      doc_url: `https://docs.stripe.com/error-codes/${code.replaceAll("_", "-")}`,
      payment_intent: structuredClone(object),
      payment_method: methodJson(method),
    });
  }

  function succeed(intent: IntentRecord, method: PaymentMethodRecord): void {
    const object = intent.object;
    object.status = "succeeded";
    object.amount_received = object.amount;
    object.next_action = null;
    object.last_payment_error = null;
    if (object.setup_future_usage && object.customer) {
      method.customer = object.customer as string;
      method.setupDone = true;
    }
    charge(intent, method, true);
    emit("payment_intent.succeeded", object);
  }

  /** Confirmation: what the test card does on-session or off it. */
  function confirm(intent: IntentRecord, method: PaymentMethodRecord, offSession: boolean): void {
    const object = intent.object;
    object.payment_method = method.id;
    const behaviour = method.card.behaviour;
    if (behaviour === "declines") decline(intent, method, "card_declined", "generic_decline", "Your card was declined.");
    if (behaviour === "insufficient") decline(intent, method, "card_declined", "insufficient_funds", "Your card has insufficient funds.");
    if (offSession && api.declineNextOffSession) {
      api.declineNextOffSession = false;
      decline(intent, method, "card_declined", "generic_decline", "Your card was declined.");
    }
    const needs3ds = behaviour === "always3ds" || (behaviour === "setup3ds" && !method.setupDone);
    if (needs3ds && offSession)
      decline(intent, method, "authentication_required", "authentication_required", "Your card was declined. This transaction requires authentication.");
    if (needs3ds) {
      object.status = "requires_action";
      object.next_action = {
        type: "redirect_to_url",
        redirect_to_url: { url: `${url}/3ds/${object.id}?client_secret=${intent.clientSecret}`, return_url: intent.returnUrl },
      };
      emit("payment_intent.requires_action", object);
      return;
    }
    if (behaviour === "processing") {
      object.status = "processing";
      emit("payment_intent.processing", object);
      return;
    }
    succeed(intent, method);
  }

  function intentOf(intentId: string): IntentRecord {
    const intent = intents.get(intentId);
    if (!intent) throw missing("payment_intent", intentId);
    return intent;
  }

  function createIntent(params: Json): Json {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 50) throw invalid("Amount must be at least $0.50 usd", "amount");
    if (params.currency !== "usd") throw invalid("Invalid currency", "currency");
    if (params.customer && !customers.has(params.customer as string)) throw missing("customer", params.customer as string);
    const intentId = id("pi");
    const clientSecret = `${intentId}_secret_${randomBytes(12).toString("hex")}`;
    const object: Json = {
      id: intentId,
      object: "payment_intent",
      amount,
      amount_received: 0,
      currency: "usd",
      customer: params.customer ?? null,
      description: params.description ?? null,
      metadata: params.metadata ?? {},
      setup_future_usage: params.setup_future_usage ?? null,
      status: "requires_payment_method",
      client_secret: clientSecret,
      payment_method: null,
      latest_charge: null,
      next_action: null,
      last_payment_error: null,
      automatic_payment_methods: params.automatic_payment_methods ? { enabled: true } : null,
      payment_method_types: ["card"],
      capture_method: "automatic",
      confirmation_method: "automatic",
      created: now(),
      livemode: false,
    };
    const intent: IntentRecord = { object, clientSecret, returnUrl: (params.return_url as string) ?? null };
    intents.set(intentId, intent);
    emit("payment_intent.created", object);
    if (params.confirm === "true") {
      const source = (params.payment_method ?? params.confirmation_token) as string | undefined;
      if (!source) throw invalid("You must provide a payment_method to confirm", "payment_method");
      confirm(intent, methodOf(source, (params.customer as string) ?? null), params.off_session === "true");
    }
    return object;
  }

  function route(method: string, path: string, params: Json): Json {
    const one = (verb: string, pattern: RegExp) => (method === verb ? path.match(pattern) : null);
    if (method === "POST" && path === "/v1/customers") {
      const customer: Json = {
        id: id("cus"),
        object: "customer",
        email: params.email ?? null,
        name: params.name ?? null,
        metadata: params.metadata ?? {},
        created: now(),
        livemode: false,
      };
      customers.set(customer.id as string, customer);
      return customer;
    }
    const customerMatch = one("GET", /^\/v1\/customers\/([^/]+)$/);
    if (customerMatch) {
      const customer = customers.get(customerMatch[1]);
      if (!customer) throw missing("customer", customerMatch[1]);
      return customer;
    }
    if (method === "POST" && path === "/v1/payment_intents") return createIntent(params);
    const intentMatch = one("GET", /^\/v1\/payment_intents\/([^/]+)$/);
    if (intentMatch) return intentOf(intentMatch[1]).object;
    const confirmMatch = one("POST", /^\/v1\/payment_intents\/([^/]+)\/confirm$/);
    if (confirmMatch) {
      const intent = intentOf(confirmMatch[1]);
      const status = intent.object.status;
      if (status !== "requires_payment_method" && status !== "requires_confirmation" && status !== "requires_action")
        throw new StripeError(400, {
          type: "invalid_request_error",
          code: "payment_intent_unexpected_state",
          message: `You cannot confirm this PaymentIntent because it has a status of ${status}.`,
          payment_intent: structuredClone(intent.object),
        });
      if (params.return_url) intent.returnUrl = params.return_url as string;
      const source = (params.payment_method ?? params.confirmation_token) as string | undefined;
      if (!source) throw invalid("You must provide a payment_method to confirm", "payment_method");
      confirm(intent, methodOf(source, (intent.object.customer as string) ?? null), params.off_session === "true");
      return intent.object;
    }
    const methodMatch = one("GET", /^\/v1\/payment_methods\/([^/]+)$/);
    if (methodMatch) {
      const found = methods.get(methodMatch[1]);
      if (!found) throw missing("payment_method", methodMatch[1]);
      return methodJson(found);
    }
    const setupAnswer = setup.route(method, path, params);
    if (setupAnswer) return setupAnswer;
    const chargeMatch = one("GET", /^\/v1\/charges\/([^/]+)$/);
    if (chargeMatch) {
      const found = charges.get(chargeMatch[1]);
      if (!found) throw missing("charge", chargeMatch[1]);
      return found;
    }
    if (method === "POST" && path === "/v1/test_helpers/confirmation_tokens") {
      const token = id("ctoken");
      if (!TEST_CARDS[params.payment_method as string]) throw missing("payment_method", String(params.payment_method));
      confirmationTokens.set(token, params.payment_method as string);
      return { id: token, object: "confirmation_token", livemode: false, created: now() };
    }
    const answered = money.route(method, path, params);
    if (answered) return answered;
    throw new StripeError(404, { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path}).` });
  }

  function send(res: ServerResponse, status: number, body: string, extra: Record<string, string> = {}, version?: string): void {
    res.writeHead(status, { "Content-Type": "application/json", "Request-Id": id("req"), "Stripe-Version": version ?? Stripe.API_VERSION, ...extra });
    res.end(body);
  }

  /** The 3-D Secure page of a PaymentIntent or a SetupIntent: a form whose buttons authenticate or fail, then back to the `return_url`. */
  function threeDsPage(req: IncomingMessage, res: ServerResponse, target: URL): void {
    const objectId = target.pathname.split("/")[2];
    const isSetup = objectId.startsWith("seti_");
    const intent = isSetup ? undefined : intents.get(objectId);
    const found = isSetup
      ? setup.pending(objectId)
      : intent && { clientSecret: intent.clientSecret, returnUrl: intent.returnUrl, status: intent.object.status };
    if (!found || target.searchParams.get("client_secret") !== found.clientSecret) {
      res.writeHead(404, { "Content-Type": "text/plain" });
      return void res.end("Unknown payment");
    }
    if (req.method === "POST") {
      const pass = target.searchParams.get("outcome") === "pass";
      if (found.status === "requires_action") (isSetup ? setup.authenticate : authenticate)(objectId, pass);
      const now = isSetup ? setup.pending(objectId) : { status: intent?.object.status };
      const kind = isSetup ? "setup_intent" : "payment_intent";
      const back = new URL(found.returnUrl ?? `${url}/`);
      back.searchParams.set(kind, objectId);
      back.searchParams.set(`${kind}_client_secret`, found.clientSecret);
      back.searchParams.set("redirect_status", now?.status === "succeeded" ? "succeeded" : "failed");
      res.writeHead(303, { Location: back.toString() });
      return void res.end();
    }
    const action = (outcome: string) => `/3ds/${objectId}?client_secret=${encodeURIComponent(found.clientSecret)}&outcome=${outcome}`;
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(
      `<!doctype html><title>3D Secure test</title><main data-three-d-secure="${objectId}"><h1>Authenticate this ${isSetup ? "card" : "payment"}</h1>` +
        `<form method="post" action="${action("pass")}"><button>Complete authentication</button></form>` +
        `<form method="post" action="${action("fail")}"><button>Fail authentication</button></form></main>`,
    );
  }

  function authenticate(intentId: string, pass: boolean): void {
    const intent = intentOf(intentId);
    if (intent.object.status !== "requires_action") throw new Error(`intent ${intentId} is ${intent.object.status}`);
    const method = methods.get(intent.object.payment_method as string) as PaymentMethodRecord;
    if (pass) {
      method.setupDone = true;
      succeed(intent, method);
      return;
    }
    try {
      decline(intent, method, "payment_intent_authentication_failure", "authentication_failure", "We are unable to authenticate your payment method.");
    } catch (error) {
      if (!(error instanceof StripeError)) throw error;
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const target = new URL(req.url ?? "/", "http://stripe.test");
      if (target.pathname.startsWith("/3ds/")) return threeDsPage(req, res, target);
      const raw = Buffer.concat(chunks).toString("utf8");
      const params = req.method === "GET" ? decodeForm(target.search.slice(1)) : decodeForm(raw);
      const header = (name: string) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value[0] : value;
      };
      const version = header("stripe-version");
      requests.push({
        method: req.method ?? "GET",
        path: target.pathname,
        params,
        headers: { "idempotency-key": header("idempotency-key"), "stripe-version": version, "content-type": header("content-type") },
      });
      if (header("authorization") !== `Bearer ${secretKey}`) {
        return send(res, 401, JSON.stringify({ error: { type: "invalid_request_error", message: "Invalid API Key provided: the key is not this server's." } }));
      }
      const key = header("idempotency-key");
      const fingerprint = createHash("sha256").update(`${req.method} ${target.pathname} ${raw}`).digest("hex");
      if (key && req.method === "POST") {
        const kept = idempotency.get(key);
        if (kept && kept.fingerprint !== fingerprint) {
          return send(
            res,
            400,
            JSON.stringify({
              error: {
                type: "idempotency_error",
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
              },
            }),
          );
        }
        if (kept) return send(res, kept.status, kept.body, { "Idempotent-Replayed": "true", "Idempotency-Key": key }, version);
      }
      let status = 200;
      let body: string;
      try {
        body = JSON.stringify(route(req.method ?? "GET", target.pathname, params));
      } catch (error) {
        if (!(error instanceof StripeError)) throw error;
        status = error.status;
        body = JSON.stringify({ error: error.body });
      }
      // Stripe keeps the answer of a key, errors included, except those that changed nothing (400s before any work).
      if (key && req.method === "POST" && status !== 401) idempotency.set(key, { fingerprint, status, body });
      send(res, status, body, key ? { "Idempotency-Key": key } : {}, version);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const api: StripeTestServer = {
    refunds: money.refunds,
    disputes: money.disputes,
    get refundsPending() {
      return money.refundsPending;
    },
    set refundsPending(value: boolean) {
      money.refundsPending = value;
    },
    settleRefund: money.settleRefund,
    openDispute: money.openDispute,
    setDisputeStatus: money.setDisputeStatus,
    url,
    secretKey,
    publishableKey,
    webhookSecret,
    requests,
    events,
    intents,
    setupIntents: setup.setupIntents,
    authenticateSetup: setup.authenticate,
    customers,
    webhookUrl: options.webhookUrl,
    declineNextOffSession: false,
    eventFor(type, objectId) {
      return [...events].reverse().find((event) => event.type === type && ((event.data as Json).object as Json).id === objectId);
    },
    async deliver(eventId, deliverOptions = {}) {
      const event = events.find((candidate) => candidate.id === eventId);
      if (!event) throw new Error(`no event ${eventId}`);
      if (!api.webhookUrl) throw new Error("no webhookUrl");
      const payload = deliverOptions.body ?? JSON.stringify(event, null, 2);
      const signature = deliverOptions.signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
      const response = await fetch(api.webhookUrl, {
        method: "POST",
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "Stripe-Signature": signature,
          "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
        },
        body: payload,
      });
      return { event, status: response.status, body: await response.text() };
    },
    authenticate,
    settle(intentId, pass) {
      const intent = intentOf(intentId);
      const method = methods.get(intent.object.payment_method as string) as PaymentMethodRecord;
      if (pass) return succeed(intent, method);
      try {
        decline(intent, method, "card_declined", "generic_decline", "Your card was declined.");
      } catch (error) {
        if (!(error instanceof StripeError)) throw error;
      }
    },
    confirmationToken(paymentMethod) {
      const token = id("ctoken");
      confirmationTokens.set(token, paymentMethod);
      return token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return api;
}
