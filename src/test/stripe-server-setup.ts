import { randomBytes } from "node:crypto";
import { invalid, type Json, missing, nowSeconds, StripeError, stripeId } from "./stripe-server-common";

/**
 * SetupIntents of the local Stripe-compatible server (src/test/stripe-server.ts), shaped as the
 * `stripe` SDK's `Stripe.SetupIntent` type and Stripe's API reference describe them: `POST
 * /v1/setup_intents`, `GET /v1/setup_intents/:id`, `POST /v1/setup_intents/:id/confirm` (with a
 * `payment_method` or a `confirmation_token`, and a `return_url`). A test card that asks for 3-D
 * Secure (`pm_card_authenticationRequired`, `pm_card_authenticationRequiredOnSetup`) leaves the
 * SetupIntent `requires_action` with `next_action.redirect_to_url`, as Stripe does; the server's
 * 3-D Secure page (or `authenticate`) then saves the card or fails it (`setup_intent.setup_failed`,
 * `last_setup_error` `setup_intent_authentication_failure`). A declining card fails at once (402).
 */

/** The part of a payment method the setup needs: the card's behaviour and whether it was authenticated once. */
export type SetupMethod = { id: string; card: { behaviour: string }; customer: string | null; setupDone: boolean };

export type SetupIntents = {
  setupIntents: Map<string, Json>;
  /** The 3-D Secure page's view of a SetupIntent: its secret, where to return, its status. */
  pending(setupId: string): { clientSecret: string; returnUrl: string | null; status: string } | undefined;
  /** The bank's answer to 3-D Secure: `true` saves the card, `false` fails the setup. */
  authenticate(setupId: string, pass: boolean): void;
  route(method: string, path: string, params: Json): Json | undefined;
};

export function setupIntentsOf(deps: {
  customers: Map<string, Json>;
  methodOf(source: string, customer: string | null): SetupMethod;
  methodJson(method: SetupMethod): Json;
  methodById(id: string): SetupMethod | undefined;
  emit(type: string, object: Json): void;
  url(): string;
}): SetupIntents {
  const setupIntents = new Map<string, Json>();
  const returnUrls = new Map<string, string | null>();

  function create(params: Json): Json {
    if (params.customer && !deps.customers.has(params.customer as string)) throw missing("customer", params.customer as string);
    const setupId = stripeId("seti");
    const object: Json = {
      id: setupId,
      object: "setup_intent",
      client_secret: `${setupId}_secret_${randomBytes(12).toString("hex")}`,
      customer: params.customer ?? null,
      description: params.description ?? null,
      metadata: params.metadata ?? {},
      usage: params.usage ?? "off_session",
      status: "requires_payment_method",
      payment_method: null,
      payment_method_types: ["card"],
      last_setup_error: null,
      next_action: null,
      latest_attempt: null,
      created: nowSeconds(),
      livemode: false,
    };
    setupIntents.set(setupId, object);
    deps.emit("setup_intent.created", object);
    return object;
  }

  function save(object: Json, method: SetupMethod): void {
    method.customer = (object.customer as string) ?? null;
    method.setupDone = true;
    object.payment_method = method.id;
    object.status = "succeeded";
    object.next_action = null;
    object.last_setup_error = null;
    deps.emit("setup_intent.succeeded", object);
  }

  function fail(object: Json, method: SetupMethod, error: { code: string; decline_code?: string; message: string }): Json {
    object.status = "requires_payment_method";
    object.payment_method = null;
    object.next_action = null;
    object.last_setup_error = { type: "card_error", ...error, payment_method: deps.methodJson(method) };
    deps.emit("setup_intent.setup_failed", object);
    return { type: "card_error", ...error, setup_intent: structuredClone(object) };
  }

  /** A SetupIntent confirmed with a test card: saved, sent to 3-D Secure, or refused as its payment would be. */
  function confirm(setupId: string, params: Json): Json {
    const object = setupIntents.get(setupId);
    if (!object) throw missing("setup_intent", setupId);
    if (!["requires_payment_method", "requires_confirmation", "requires_action"].includes(object.status as string))
      throw new StripeError(400, {
        type: "invalid_request_error",
        code: "setup_intent_unexpected_state",
        message: `You cannot confirm this SetupIntent because it has a status of ${object.status}.`,
        setup_intent: structuredClone(object),
      });
    const source = (params.payment_method ?? params.confirmation_token) as string | undefined;
    if (!source) throw invalid("You must provide a payment_method to confirm", "payment_method");
    if (params.return_url) returnUrls.set(setupId, params.return_url as string);
    const method = deps.methodOf(source, null);
    const behaviour = method.card.behaviour;
    if (behaviour === "declines" || behaviour === "insufficient") {
      const declineCode = behaviour === "declines" ? "generic_decline" : "insufficient_funds";
      const message = behaviour === "declines" ? "Your card was declined." : "Your card has insufficient funds.";
      throw new StripeError(402, fail(object, method, { code: "card_declined", decline_code: declineCode, message }));
    }
    if ((behaviour === "always3ds" || behaviour === "setup3ds") && !method.setupDone) {
      object.payment_method = method.id;
      object.status = "requires_action";
      object.next_action = {
        type: "redirect_to_url",
        redirect_to_url: { url: `${deps.url()}/3ds/${setupId}?client_secret=${object.client_secret}`, return_url: returnUrls.get(setupId) ?? null },
      };
      deps.emit("setup_intent.requires_action", object);
      return object;
    }
    save(object, method);
    return object;
  }

  function authenticate(setupId: string, pass: boolean): void {
    const object = setupIntents.get(setupId);
    if (object?.status !== "requires_action") throw new Error(`setup intent ${setupId} is ${object?.status}`);
    const method = deps.methodById(object.payment_method as string) as SetupMethod;
    if (pass) {
      save(object, method);
      return;
    }
    fail(object, method, {
      code: "setup_intent_authentication_failure",
      message: "We are unable to authenticate your payment method. Please choose a different payment method and try again.",
    });
  }

  return {
    setupIntents,
    authenticate,
    pending(setupId) {
      const object = setupIntents.get(setupId);
      if (!object) return undefined;
      return { clientSecret: object.client_secret as string, returnUrl: returnUrls.get(setupId) ?? null, status: object.status as string };
    },
    route(method, path, params) {
      if (method === "POST" && path === "/v1/setup_intents") return create(params);
      const one = method === "GET" ? path.match(/^\/v1\/setup_intents\/([^/]+)$/) : null;
      if (one) {
        const found = setupIntents.get(one[1]);
        if (!found) throw missing("setup_intent", one[1]);
        return found;
      }
      const confirming = method === "POST" ? path.match(/^\/v1\/setup_intents\/([^/]+)\/confirm$/) : null;
      if (confirming) return confirm(confirming[1], params);
      return undefined;
    },
  };
}
