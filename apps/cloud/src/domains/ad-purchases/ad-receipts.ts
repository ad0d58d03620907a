import type { Clock } from '@vend/protocol';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { AdPurchaseRow } from '../../db/schema.ts';
import type { MailMessage, MailSender } from '../../mail/mail-sender.ts';
import type { AppStore } from '../../repos.ts';
import { flightOf } from './purchase.rules.ts';
import { partsOf } from './purchase-views.ts';
import { StatusTokenSeal } from './status-token-seal.ts';

export interface AdReceiptsDeps {
  store: AppStore;
  clock: Clock;
  /** The cloud's one mail sender (SMTP, or the sandbox's recording outbox). */
  mail: Pick<MailSender, 'send'>;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** DATA_KEY opens the sealed status token; the link starts at PUBLIC_BASE_URL, else the listening address. */
  config: Pick<Config, 'dataKey' | 'publicBaseUrl' | 'host' | 'port'>;
}

/** Retry policy of a receipt the mail sender could not take: doubling from a minute, capped at an hour, given up after the last. */
export const RECEIPT_RETRY = { firstDelayMs: 60_000, maxDelayMs: 3_600_000, maxAttempts: 10 } as const;
/** How long one attempt holds its claim: a replica that dies mid-send lets another try after this. */
export const RECEIPT_CLAIM_MS = 5 * 60_000;
const BATCH = 100;

/** `b…@example.test`: enough for an operator to recognise, never the address. */
export function maskedAddress(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '…' : `${email[0]}…${email.slice(at)}`;
}

/** The delay before attempt `attempts + 1` after `attempts` failures. */
export function receiptRetryDelay(attempts: number): number {
  return Math.min(RECEIPT_RETRY.maxDelayMs, RECEIPT_RETRY.firstDelayMs * 2 ** Math.max(0, attempts - 1));
}

function money(cents: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);
  } catch {
    return `${(cents / 100).toFixed(2)} ${currency}`;
  }
}

const day = (t: number) => new Date(t).toISOString().slice(0, 10);

/** The receipt of a paid purchase: what was paid, for what (kiosks, dates), and the status link (when it can be opened). */
export function receiptMessage(row: AdPurchaseRow, statusUrl: string | null): MailMessage {
  const amount = money(Number(row.total_cents), row.currency);
  const flight = flightOf(row.flight_start, row.months);
  const kiosks = partsOf(row).map((p) => `  - ${p.operatorName}: ${p.machineNos.join(', ')}`);
  const text = [
    `Hello ${row.buyer_name},`,
    '',
    `Thank you: we received your payment of ${amount} for a screen ad for ${row.sponsor_name}.`,
    '',
    `Amount paid: ${amount}`,
    `Paid on: ${row.paid_at !== null ? day(row.paid_at) : day(row.updated_at)}`,
    `Payment reference: ${row.payment_intent_id}`,
    `Purchase: ${row.id}`,
    '',
    `What you bought: ${row.machines} kiosk${row.machines === 1 ? '' : 's'}, ${row.slots === 2 ? 'double (2 slots per loop)' : 'standard (1 slot per loop)'}, ${row.months} month${row.months === 1 ? '' : 's'}`,
    `From ${day(flight.start)} to ${day(flight.end)}`,
    'Kiosks:',
    ...kiosks,
    '',
    "Each kiosk's operator now reviews your ad. If one declines, the part of the price for its kiosks is refunded, or you may change the ad and send it again.",
    '',
    statusUrl
      ? `Follow your purchase (keep this link private: it is the only way to see it):\n${statusUrl}`
      : 'Follow your purchase with the status link you were given when you bought it.',
    '',
  ].join('\n');
  return { to: row.buyer_email, subject: `Receipt: ${amount} paid for your screen ad (${row.sponsor_name})`, text };
}

/**
 * The buyer's receipt e-mail (issue 34). The payment webhook queues it in the payment's own transaction
 * (`receipt_status = queued`, due now), so a duplicate webhook, which changes nothing, queues nothing; it is sent after
 * the commit (`sendNow`), and whatever the mail sender could not take is retried by the receipt loop (`sendDue`) with a
 * doubling delay. Each attempt first claims the row (`receipt_next_at` moved past the claim window, only while due), so
 * the webhook's send and the loop never send the same receipt together. The address and the token are never logged.
 */
export class AdReceipts {
  private readonly seal: StatusTokenSeal;
  private readonly baseUrl: string;
  constructor(private readonly deps: AdReceiptsDeps) {
    this.seal = new StatusTokenSeal(deps.config.dataKey);
    this.baseUrl = deps.config.publicBaseUrl ?? `http://${deps.config.host}:${deps.config.port}`;
  }

  /** Right after the payment's commit: sends that purchase's receipt if it is due (a failure is left to the loop). */
  async sendNow(purchaseId: string): Promise<boolean> {
    return this.attempt(purchaseId);
  }

  /** The receipt loop's work: every due receipt, once each; answers how many were sent. */
  async sendDue(): Promise<number> {
    const due = await this.deps.store.repos.adPurchases.receiptsDue(this.deps.clock.now(), BATCH);
    let sent = 0;
    for (const id of due) if (await this.attempt(id)) sent++;
    return sent;
  }

  private async attempt(purchaseId: string): Promise<boolean> {
    const repo = this.deps.store.repos.adPurchases;
    const now = this.deps.clock.now();
    const row = await repo.purchase(purchaseId);
    if (!row || row.receipt_status !== 'queued' || row.receipt_next_at === null || row.receipt_next_at > now) return false;
    if (!(await repo.claimReceipt(purchaseId, row.receipt_next_at, now + RECEIPT_CLAIM_MS))) return false;
    const token = row.status_token_sealed ? this.seal.open(row.status_token_sealed) : null;
    const statusUrl = token ? `${this.baseUrl}/advertise/status/${token}` : null;
    const log = { purchaseId, to: maskedAddress(row.buyer_email) };
    try {
      await this.deps.mail.send(receiptMessage(row, statusUrl));
    } catch (err) {
      const attempts = Number(row.receipt_attempts) + 1;
      const giveUp = attempts >= RECEIPT_RETRY.maxAttempts;
      // the sender's message may quote the recipient: it is kept without the address
      const reason = String((err as Error).message ?? err)
        .split(row.buyer_email)
        .join(maskedAddress(row.buyer_email))
        .slice(0, 500);
      await repo.receiptFailed(purchaseId, attempts, giveUp ? null : this.deps.clock.now() + receiptRetryDelay(attempts), reason);
      this.deps.logger.warn({ ...log, attempts, giveUp, err: reason }, giveUp ? 'ad receipt e-mail given up' : 'ad receipt e-mail not sent; retried later');
      return false;
    }
    await repo.receiptSent(purchaseId, this.deps.clock.now());
    this.deps.logger.info(log, 'ad receipt e-mail sent');
    return true;
  }
}
