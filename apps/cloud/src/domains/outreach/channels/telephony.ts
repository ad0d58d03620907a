import type { Channel, ChannelAdapter, RenderedMessage } from './channel.ts';

export interface TelephonyConfig {
  /** The provider's REST base, e.g. https://api.provider.example/2010-04-01 */
  url: string;
  account: string;
  token: string;
  /** The caller id and sender number. */
  from: string;
  timeoutMs?: number;
}

/** Escapes text for the call's TwiML-style document. */
function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/**
 * Voice calls and text messages through a Twilio-style REST provider: `POST {url}/Accounts/{account}/Messages.json`
 * (To, From, Body, StatusCallback) and `.../Calls.json` (To, From, Twiml, StatusCallback), form-encoded with
 * HTTP basic auth; the answer's `sid` is the provider's id, which its signed status callbacks name.
 */
export class TelephonyChannel implements ChannelAdapter {
  readonly kind = 'real' as const;
  constructor(
    readonly channel: Extract<Channel, 'sms' | 'voice'>,
    private readonly cfg: TelephonyConfig,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async send(to: string, m: RenderedMessage, statusCallbackUrl: string): Promise<{ providerRef: string }> {
    const form = new URLSearchParams({ To: to, From: this.cfg.from, StatusCallback: statusCallbackUrl });
    if (this.channel === 'sms') form.set('Body', m.body);
    else form.set('Twiml', `<Response><Say>${xml(m.body)}</Say></Response>`);
    const resource = this.channel === 'sms' ? 'Messages' : 'Calls';
    const res = await this.fetchImpl(`${this.cfg.url}/Accounts/${encodeURIComponent(this.cfg.account)}/${resource}.json`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.cfg.account}:${this.cfg.token}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: form.toString(),
      signal: AbortSignal.timeout(this.cfg.timeoutMs ?? 10_000),
    });
    const text = await res.text();
    if (!res.ok) throw new TelephonyError(`provider answered ${res.status} on ${resource}`);
    let sid: unknown;
    try {
      sid = (JSON.parse(text) as { sid?: unknown }).sid;
    } catch {
      sid = undefined;
    }
    if (typeof sid !== 'string' || sid === '' || sid.length > 128) throw new TelephonyError(`provider answer on ${resource} has no sid`);
    return { providerRef: sid };
  }
}

export class TelephonyError extends Error {}

/** The sandbox default for voice and text: records what would have been sent. */
export class RecordingTelephony implements ChannelAdapter {
  readonly kind = 'outbox' as const;
  readonly sent: { to: string; message: RenderedMessage; providerRef: string }[] = [];
  constructor(readonly channel: Extract<Channel, 'sms' | 'voice'>) {}

  send(to: string, message: RenderedMessage): Promise<{ providerRef: string }> {
    const providerRef = `outbox-${this.channel}-${this.sent.length + 1}`;
    this.sent.push({ to, message, providerRef });
    return Promise.resolve({ providerRef });
  }
}
