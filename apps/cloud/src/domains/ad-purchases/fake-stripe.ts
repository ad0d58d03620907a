import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** A failure the fake answers instead of doing the call (Stripe's status and error object). */
export type FakeStripeFailure = 'card_declined' | 'rate_limited' | 'server_error' | 'refund_refused';

export interface SeenStripeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  contentType: string | undefined;
  /** The form body as sent (Stripe's bracket notation). */
  raw: string;
  /** The form body read back into objects and arrays. */
  form: Record<string, unknown>;
  /** What the fake answered. */
  status: number;
}

/** A Checkout Session as the fake keeps it (the fields of Stripe's object the adapter and its tests read). */
export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  amount_total: number;
  currency: string;
  metadata: Record<string, string>;
  client_reference_id: string | null;
  payment_intent: string | null;
  payment_status: 'unpaid' | 'paid';
  status: 'open' | 'complete';
  success_url: string | null;
  cancel_url: string | null;
  url: string;
  livemode: false;
  created: number;
}

/** A Refund as the fake keeps it. */
export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: string;
  payment_intent: string;
  status: 'succeeded';
  reason: string | null;
  metadata: Record<string, string>;
  created: number;
}

/** A webhook delivery as Stripe would send it: the exact body and its `Stripe-Signature` header. */
export interface SignedStripeEvent {
  id: string;
  payload: string;
  header: string;
}

export interface FakeStripe {
  /** `http://127.0.0.1:<port>`: STRIPE_API_BASE. */
  url: string;
  /** The SDK's host/port/protocol options for this fake. */
  api: { host: string; port: number; protocol: 'http' };
  requests: SeenStripeRequest[];
  sessions: Map<string, FakeSession>;
  /** Refunds made (`POST /v1/refunds`), by id: a replayed Idempotency-Key makes none. */
  refunds: Map<string, FakeRefund>;
  /** The next `count` API calls answer this failure (then the fake works again); `refund_refused`: the next refunds only. */
  failNext(failure: FakeStripeFailure, count?: number): void;
  /**
   * The buyer pays on the hosted page: the session is paid (its PaymentIntent made) and the signed
   * `checkout.session.completed` event is returned for the test to deliver. `timestamp`: seconds (the signing time).
   */
  complete(sessionId: string, opts: { secret: string; timestamp: number; eventId?: string }): SignedStripeEvent;
  close(): Promise<void>;
}

const ERRORS: Record<FakeStripeFailure, { status: number; error: Record<string, string> }> = {
  card_declined: {
    status: 402,
    error: { type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  },
  rate_limited: {
    status: 429,
    error: { type: 'invalid_request_error', code: 'rate_limit', message: 'Too many requests hit the API too quickly.' },
  },
  refund_refused: {
    status: 400,
    error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: 'Charge ch_test has already been refunded.' },
  },
  server_error: { status: 500, error: { type: 'api_error', message: 'An unknown error occurred on Stripe’s side.' } },
};

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/**
 * Stripe's form encoding read back: `a[b][0][c]=v` → `{ a: { b: [ { c: 'v' } ] } }` (numeric segments make arrays).
 */
export function parseStripeForm(raw: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, unknown> | unknown[] = root;
    path.forEach((seg, i) => {
      const last = i === path.length - 1;
      const slot = node as Record<string, unknown>;
      if (last) {
        slot[seg] = value;
        return;
      }
      slot[seg] ??= /^\d+$/.test(path[i + 1]!) ? [] : {};
      node = slot[seg] as Record<string, unknown>;
    });
  }
  return root;
}

/** Signs a webhook body as Stripe does, with the SDK's own test helper (`t=<ts>,v1=<hmac>`). */
export function signStripeEvent(payload: string, secret: string, timestamp: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}

/** A Stripe event around an object, as a webhook delivers it. */
export function stripeEvent(type: string, object: unknown, opts: { id?: string; created: number }): string {
  return JSON.stringify({
    id: opts.id ?? id('evt'),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: opts.created,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  });
}

/**
 * A local stand-in for Stripe's API on 127.0.0.1, speaking its wire format for the calls the adapter makes
 * (`POST /v1/checkout/sessions`, `GET /v1/checkout/sessions/:id` — with its `payment_intent` once paid —, `POST /v1/refunds`): form-encoded bodies in bracket notation,
 * `Authorization: Bearer <secret key>` (401 `authentication_error` otherwise), `Idempotency-Key` (the same key and
 * body replay the first answer with `Idempotent-Replayed: true`; the same key with another body is 400
 * `idempotency_error`), and Stripe's JSON error objects. `failNext` makes it decline (402), refuse a refund (400 `charge_already_refunded`), throttle (429) or fail (500).
 */
export async function startFakeStripe(secretKey: string): Promise<FakeStripe> {
  const requests: SeenStripeRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const refunds = new Map<string, FakeRefund>();
  const replays = new Map<string, { raw: string; path: string; status: number; body: string }>();
  const failures: FakeStripeFailure[] = [];
  let url = '';

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = (req.url ?? '').split('?')[0]!;
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      const seen: SeenStripeRequest = {
        method: req.method ?? '',
        path,
        authorization: req.headers['authorization'],
        idempotencyKey,
        contentType: req.headers['content-type'],
        raw,
        form: parseStripeForm(raw),
        status: 0,
      };
      requests.push(seen);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        seen.status = status;
        const text = typeof body === 'string' ? body : JSON.stringify(body);
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req'), ...headers }).end(text);
        return text;
      };
      const error = (status: number, e: Record<string, string>) => send(status, { error: { ...e, request_log_url: `${url}/logs` } });

      if (seen.authorization !== `Bearer ${secretKey}`) {
        return error(401, { type: 'invalid_request_error', code: 'api_key_invalid', message: 'Invalid API Key provided.' });
      }
      if (req.method === 'POST' && idempotencyKey) {
        const prior = replays.get(idempotencyKey);
        if (prior && (prior.raw !== raw || prior.path !== path)) {
          return error(400, {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
          });
        }
        if (prior) return send(prior.status, prior.body, { 'idempotent-replayed': 'true' });
      }
      // a refused refund is what `POST /v1/refunds` answers (the session read before it goes through)
      const failure = failures[0] === 'refund_refused' && path !== '/v1/refunds' ? undefined : failures.shift();
      if (failure) {
        const f = ERRORS[failure];
        const text = error(f.status, f.error);
        // Stripe saves a request's result once it started executing (a decline), not a throttled or failed one
        if ((failure === 'card_declined' || failure === 'refund_refused') && idempotencyKey)
          replays.set(idempotencyKey, { raw, path, status: f.status, body: text });
        return;
      }
      if (req.method === 'POST' && path === '/v1/checkout/sessions') {
        const session = createSession(seen.form);
        if ('error' in session) return error(400, session.error);
        sessions.set(session.id, session);
        const text = send(200, session);
        if (idempotencyKey) replays.set(idempotencyKey, { raw, path, status: 200, body: text });
        return;
      }
      if (req.method === 'POST' && path === '/v1/refunds') {
        const refund = createRefund(seen.form);
        if ('error' in refund) return error(400, refund.error);
        refunds.set(refund.id, refund);
        const text = send(200, refund);
        if (idempotencyKey) replays.set(idempotencyKey, { raw, path, status: 200, body: text });
        return;
      }
      const m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
      if (req.method === 'GET' && m) {
        const s = sessions.get(decodeURIComponent(m[1]!));
        return s ? send(200, s) : error(404, { type: 'invalid_request_error', code: 'resource_missing', message: `No such checkout.session: '${m[1]}'` });
      }
      return error(404, { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path}).` });
    });
  });

  const createRefund = (form: Record<string, unknown>): FakeRefund | { error: Record<string, string> } => {
    const pi = form['payment_intent'];
    const session = [...sessions.values()].find((s) => s.payment_intent !== null && s.payment_intent === pi);
    if (!session)
      return {
        error: { type: 'invalid_request_error', code: 'resource_missing', param: 'payment_intent', message: `No such payment_intent: '${String(pi)}'` },
      };
    const refunded = [...refunds.values()].filter((r) => r.payment_intent === pi).reduce((a, r) => a + r.amount, 0);
    const amount = form['amount'] === undefined ? session.amount_total - refunded : Number(form['amount']);
    if (!Number.isInteger(amount) || amount <= 0) return { error: { type: 'invalid_request_error', param: 'amount', message: 'Invalid positive integer' } };
    if (refunded >= session.amount_total) {
      return { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Charge for ${String(pi)} has already been refunded.` } };
    }
    if (amount > session.amount_total - refunded) {
      return {
        error: {
          type: 'invalid_request_error',
          code: 'amount_too_large',
          param: 'amount',
          message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${session.amount_total - refunded})`,
        },
      };
    }
    return {
      id: id('re'),
      object: 'refund',
      amount,
      currency: session.currency,
      payment_intent: String(pi),
      status: 'succeeded',
      reason: (form['reason'] as string | undefined) ?? null,
      metadata: (form['metadata'] ?? {}) as Record<string, string>,
      created: Math.floor(Date.now() / 1000),
    };
  };

  const createSession = (form: Record<string, unknown>): FakeSession | { error: Record<string, string> } => {
    const items = (form['line_items'] ?? []) as { quantity?: string; price_data?: { currency?: string; unit_amount?: string } }[];
    if (form['mode'] !== 'payment') return { error: { type: 'invalid_request_error', param: 'mode', message: 'Missing required param: mode.' } };
    if (!items.length) return { error: { type: 'invalid_request_error', param: 'line_items', message: 'Missing required param: line_items.' } };
    if (typeof form['success_url'] !== 'string' || !/^https?:\/\//.test(form['success_url'])) {
      return { error: { type: 'invalid_request_error', param: 'success_url', message: 'Not a valid URL' } };
    }
    let amount = 0;
    const currencies = new Set<string>();
    for (const [i, item] of items.entries()) {
      const unit = Number(item.price_data?.unit_amount);
      if (!Number.isInteger(unit) || unit < 0) {
        return { error: { type: 'invalid_request_error', param: `line_items[${i}][price_data][unit_amount]`, message: 'Invalid integer' } };
      }
      amount += unit * Number(item.quantity ?? 1);
      currencies.add(String(item.price_data?.currency));
    }
    const sessionId = id('cs');
    return {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      amount_total: amount,
      currency: [...currencies][0]!,
      metadata: (form['metadata'] ?? {}) as Record<string, string>,
      client_reference_id: (form['client_reference_id'] as string | undefined) ?? null,
      payment_intent: null,
      payment_status: 'unpaid',
      status: 'open',
      success_url: form['success_url'],
      cancel_url: (form['cancel_url'] as string | undefined) ?? null,
      url: `${url}/c/pay/${sessionId}`,
      livemode: false,
      created: Math.floor(Date.now() / 1000),
    };
  };

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  url = `http://127.0.0.1:${port}`;
  return {
    url,
    api: { host: '127.0.0.1', port, protocol: 'http' },
    requests,
    sessions,
    refunds,
    failNext(failure, count = 1) {
      for (let i = 0; i < count; i++) failures.push(failure);
    },
    complete(sessionId, opts) {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`no such session ${sessionId}`);
      s.payment_status = 'paid';
      s.status = 'complete';
      s.payment_intent ??= id('pi');
      const eventId = opts.eventId ?? id('evt');
      const payload = stripeEvent('checkout.session.completed', s, { id: eventId, created: opts.timestamp });
      return { id: eventId, payload, header: signStripeEvent(payload, opts.secret, opts.timestamp) };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
