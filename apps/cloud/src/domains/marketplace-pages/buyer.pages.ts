import { html, layout, type SafeHtml } from '../../http/html.ts';
import type { CreativeDraftView, PurchaseStatusView, QuoteView } from '../ad-purchases/ad-purchases.schemas.ts';
import type { TestIntent } from '../ad-purchases/test-processor.ts';
import { briefHidden, type AdvertiseMachine, type BriefValues } from './brief.page.ts';
import { csrfInput, field } from './form-ui.ts';
import { day, money, multiplier, usd } from './page-common.ts';

/** The buyer's pages after the brief: the quote, the test processor's checkout, the status. */

const SPONSOR_TYPE: Record<string, string> = { 'local-business': 'Local business', 'brand-coop': 'Brand stocked in the kiosk (co-op)' };
const STATUS: Record<string, string> = {
  awaiting_payment: 'Awaiting payment',
  pending_approval: 'Pending approval',
  approved: 'Approved',
  partially_approved: 'Partly approved',
  rejected: 'Rejected',
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** "Only kiosk SBX-…", "every kiosk in ZIP 62701", … */
export function reachText(r: { kind: string; machineNo?: string | undefined; zips?: string[] | undefined; city?: string | undefined }): string {
  switch (r.kind) {
    case 'machine':
      return `Only kiosk ${r.machineNo ?? ''}`;
    case 'zip':
      return `Every kiosk in ZIP ${r.zips?.[0] ?? ''}`;
    case 'zips':
      return `Every kiosk in ZIPs ${(r.zips ?? []).join(', ')}`;
    case 'city':
      return `Every kiosk in ${r.city ?? ''}`;
    default:
      return 'The whole network';
  }
}

type Priced = Pick<
  QuoteView,
  'catalogVersion' | 'rateCents' | 'multiplierBps' | 'slots' | 'machines' | 'months' | 'totalCents' | 'monthlyRatePerMachineCents'
> & {
  effectiveDate?: string;
};

/** The server's breakdown: every factor of the quote rule, the total, the price list version. */
export function breakdown(q: Priced): SafeHtml {
  return html`<div class="table-wrap">
    <table>
      <caption class="muted small">
        total = rate × volume multiplier × slots × kiosks × months, in cents, rounded once at the end. Price list
        ${q.catalogVersion}${q.effectiveDate ? html` (from ${q.effectiveDate})` : ''}.
      </caption>
      <tbody>
        <tr>
          <th scope="row">Rate per kiosk per month per slot</th>
          <td class="num">${usd(q.rateCents)}</td>
        </tr>
        <tr>
          <th scope="row">Volume multiplier (${plural(q.machines, 'kiosk')})</th>
          <td class="num">${multiplier(q.multiplierBps)}</td>
        </tr>
        <tr>
          <th scope="row">Slots per loop</th>
          <td class="num">${q.slots}</td>
        </tr>
        <tr>
          <th scope="row">Kiosks</th>
          <td class="num">${q.machines}</td>
        </tr>
        <tr>
          <th scope="row">Months (30 days each)</th>
          <td class="num">${q.months}</td>
        </tr>
        <tr>
          <th scope="row">Per kiosk per month</th>
          <td class="num">${usd(q.monthlyRatePerMachineCents)}</td>
        </tr>
        <tr>
          <th scope="row">Total</th>
          <td class="num total">${usd(q.totalCents)}</td>
        </tr>
      </tbody>
    </table>
  </div>`;
}

function operatorsList(ops: readonly { operatorName: string; machines: number; machineNos: string[] }[]): SafeHtml {
  return html`<ul>
    ${ops.map((o) => html`<li>${o.operatorName}: ${plural(o.machines, 'kiosk')}${o.machines <= 5 ? html` <span class="muted small">(${o.machineNos.join(', ')})</span>` : ''}</li>`)}
  </ul>`;
}

export interface QuotePageInput {
  machine: AdvertiseMachine;
  values: BriefValues;
  quote: QuoteView;
  draft: CreativeDraftView;
  creativeId: string;
  csrf: string;
}

/** The quote shown before paying. The pay form carries the brief and the chosen design, never an amount. */
export function quotePage(p: QuotePageInput): SafeHtml {
  const { quote: q, values: v, draft, machine: m } = p;
  const carry = html`${csrfInput(p.csrf)}<input type="hidden" name="machine" value="${m.machineNo}" /><input type="hidden" name="qr" value="${m.qrId}" /><input
      type="hidden"
      name="draft"
      value="${draft.draftToken}"
    />`;
  const designs = [...draft.creatives].reverse();
  return layout({
    title: `Your price: ${usd(q.totalCents)}`,
    body: html`<h1>Your price: ${usd(q.totalCents)}</h1>
      <div class="card">
        <dl class="facts">
          <dt>Sponsor</dt>
          <dd>${v.sponsorName} — ${SPONSOR_TYPE[q.sponsorType] ?? q.sponsorType}</dd>
          <dt>Where</dt>
          <dd>${reachText(q.reach)}: ${plural(q.machines, 'kiosk')}${operatorsList(q.operators)}</dd>
          <dt>How often</dt>
          <dd>${q.slots === 2 ? 'Double (2 slots per loop)' : 'Standard (1 slot per loop)'}</dd>
          <dt>When</dt>
          <dd>${day(q.flightStart)} to ${day(q.flightEnd)} (${plural(q.months, 'month')})</dd>
          <dt>Contact</dt>
          <dd>${v.buyerName}, ${v.buyerEmail}${v.buyerPhone ? html`, ${v.buyerPhone}` : ''}</dd>
        </dl>
      </div>
      <h2>How the price is made</h2>
      ${breakdown(q)}
      <form method="post" action="/advertise/pay" novalidate>
        ${carry}${briefHidden(v)}
        <fieldset>
          <legend>Your ad</legend>
          ${designs.map(
            (c, i) =>
              html`<div class="choice">
                <input type="radio" id="f-creativeId${i ? `-${i}` : ''}" name="creativeId" value="${c.id}" ${c.id === p.creativeId ? html` checked` : ''} />
                <label for="f-creativeId${i ? `-${i}` : ''}"
                  >${c.source === 'contentx' ? 'Studio design' : 'Your upload'}
                  (${c.width}×${c.height}${c.durationMs !== null ? `, ${(c.durationMs / 1000).toFixed(1)} s video` : ''})${c.kind === 'image' ? html`<br /><img class="preview" src="${c.url}" alt="${c.source === 'contentx' ? 'Studio design' : 'Your upload'} ${designs.length - i}" />` : ''}</label
                >
              </div>`,
          )}
        </fieldset>
        <p class="muted small">
          You pay on the next page. The kiosks' operators then review your ad; if one declines, the part of the price for its kiosks is refunded.
        </p>
        <div class="actions"><button type="submit">Pay ${usd(q.totalCents)}</button></div>
      </form>
      ${
        draft.generationsLeft > 0
          ? html`<h2>Another design</h2>
              <form method="post" action="/advertise/brief" enctype="multipart/form-data" novalidate>
                ${carry}${briefHidden({ ...v, creativeMode: 'studio' }, ['studioBrief'])}<input type="hidden" name="creativeId" value="${p.creativeId}" />
                ${field({ name: 'studioBrief', label: 'What should the studio make?', type: 'textarea', value: v.studioBrief, hint: `${draft.generationsLeft} of ${draft.generationsUsed + draft.generationsLeft} designs left.`, maxlength: 500 })}
                <div class="actions"><button type="submit" class="secondary" name="intent" value="regenerate">Design another</button></div>
              </form>`
          : html`<p class="muted">You have used all ${draft.generationsUsed} studio designs of this purchase.</p>`
      }
      <form method="post" action="/advertise/brief" enctype="multipart/form-data" novalidate>
        ${carry}${briefHidden({ ...v, creativeMode: 'keep' })}<input type="hidden" name="creativeId" value="${p.creativeId}" />
        <div class="actions"><button type="submit" class="secondary" name="intent" value="edit">Change the brief</button></div>
      </form>`,
  });
}

/** The built-in test processor's hosted checkout (sandbox): no card, one button. */
export function checkoutPage(p: { intent: TestIntent; csrf: string; statusPath: string | null }): SafeHtml {
  const i = p.intent;
  const paid = i.status === 'succeeded';
  return layout({
    title: paid ? 'Paid' : `Pay ${money(i.amountCents, i.currency)}`,
    body: html`<h1>${paid ? 'Paid' : 'Test checkout'}</h1>
      <div class="notice warn">
        <p>Sandbox test processor: no card and no real money. “Pay now” plays the payment and the processor's signed notice to the service.</p>
      </div>
      <div class="card">
        <dl class="facts">
          <dt>Amount</dt>
          <dd class="total">${money(i.amountCents, i.currency)} ${i.currency}</dd>
          <dt>For</dt>
          <dd>${i.description}</dd>
          <dt>Payment</dt>
          <dd><code>${i.intentId}</code> · ${paid ? `paid ${day(i.succeededAt)}` : 'not paid yet'}</dd>
        </dl>
      </div>
      ${
        paid
          ? p.statusPath
            ? html`<p><a class="button" href="${p.statusPath}">See your purchase</a></p>`
            : html`<p>Use the status link of your purchase to follow it.</p>`
          : html`<form method="post" action="/pay/test/${i.intentId}">
              ${csrfInput(p.csrf)}
              <div class="actions"><button type="submit">Pay now</button></div>
            </form>`
      }`,
  });
}

type StatusLine = PurchaseStatusView['lines'][number];

/** A rejected line's refund for the buyer: owed by its operator, issued (when, and the processor's reference), or failed (why). */
export function refundText(l: Pick<StatusLine, 'operatorName' | 'refund'>): SafeHtml | '' {
  const r = l.refund;
  if (!r) return '';
  switch (r.status) {
    case 'issued':
      return html`<span class="refund issued" data-refund="issued"
        >Refunded ${usd(r.amountCents)} on ${day(r.at)}${r.refundId ? html` <span class="muted small">(refund <code>${r.refundId}</code>)</span>` : ''}</span
      >`;
    case 'failed':
      return html`<span class="refund failed" data-refund="failed">The refund could not be made: ${r.reason ?? 'no reason given'}</span>`;
    case 'owed':
      return html`<span class="refund owed" data-refund="owed">Refund of ${usd(r.amountCents)} owed by ${l.operatorName}</span>`;
  }
}

/** What the resubmit form shows again: the line it was for, the field errors (`form`: a notice above them), the brief typed. */
export interface ResubmitState {
  lineId: string;
  errors: Record<string, string>;
  studioBrief: string;
}

/**
 * The forms that send a rejected line back for approval with a new ad (one per line the buyer may resubmit): a file
 * to upload or a brief for the studio. Keyboard order: the file, the brief, the button; ids are the line's own.
 */
export function resubmitForms(s: PurchaseStatusView, p: { action: string; csrf: string; state?: ResubmitState | null }): SafeHtml | '' {
  const open = s.lines.filter((l) => l.resubmittable);
  if (open.length === 0) return '';
  return html`<h2 id="change-ad">Change your ad and send it again</h2>
    <p>
      While your refund is not paid back, you may change the ad for a declined part and send it to the same operator again. The price does not change; once
      sent, that part owes no refund unless the operator declines again.
    </p>
    ${open.map((l) => {
      const st = p.state?.lineId === l.lineId ? p.state : null;
      const e = st?.errors ?? {};
      const key = l.lineId.replace(/[^A-Za-z0-9_-]/g, '-');
      return html`<form method="post" action="${p.action}" enctype="multipart/form-data" novalidate class="card" aria-labelledby="rs-${key}-title">
        <h3 id="rs-${key}-title">${l.operatorName}: ${plural(l.machines, 'kiosk')}</h3>
        ${e['form'] ? html`<div class="notice error" role="alert"><p>${e['form']}</p></div>` : ''} ${csrfInput(p.csrf)}
        <input type="hidden" name="line" value="${l.lineId}" />
        ${field({ name: 'creativeFile', id: `rs-${key}-file`, label: 'Upload a new ad', type: 'file', error: e['creativeFile'], accept: 'image/png,image/jpeg,image/webp,video/mp4', hint: 'A portrait image or an MP4 video.' })}
        ${field({ name: 'studioBrief', id: `rs-${key}-brief`, label: 'Or describe a new design for the studio', type: 'textarea', value: st?.studioBrief ?? '', error: e['studioBrief'], maxlength: 500, hint: 'Used when no file is chosen.' })}
        <div class="actions"><button type="submit">Send for approval again</button></div>
      </form>`;
    })}`;
}

/**
 * The buyer's status page: the purchase, each operator's decision (and reason), each refund's state, the quote. The
 * review table is a focusable region: on a phone it scrolls sideways, and a keyboard must reach what is off screen.
 */
export function statusPage(s: PurchaseStatusView, statusPath: string, extra: SafeHtml | '' = ''): SafeHtml {
  const lines: (Pick<StatusLine, 'operatorName' | 'machines' | 'amountCents' | 'reason' | 'decidedAt' | 'refund'> & { status: string })[] = s.lines.length
    ? s.lines
    : s.operators.map((o) => ({ ...o, status: 'awaiting_payment', reason: null, decidedAt: null, refund: null }));
  const stillOwed = s.lines.filter((l) => l.refund && l.refund.status !== 'issued').reduce((a, l) => a + l.refund!.amountCents, 0);
  return layout({
    title: `Your screen ad: ${STATUS[s.status] ?? s.status}`,
    body: html`<h1>Your screen ad for ${s.sponsorName}</h1>
      <p>Status: <span class="status ${s.status}" id="purchase-status" data-status="${s.status}">${STATUS[s.status] ?? s.status}</span></p>
      <p class="muted small">Keep this page's address: it is the only way to see your purchase. <a href="${statusPath}">Reload</a></p>
      ${s.status === 'awaiting_payment' && s.checkoutUrl ? html`<p><a class="button" href="${s.checkoutUrl}">Pay ${usd(s.totalCents)}</a></p>` : ''}
      ${
        stillOwed > 0
          ? html`<div class="notice warn">
              <p>
                Refund owed to you: <b>${usd(stillOwed)}</b> for the kiosks whose operator declined. The operator refunds it to the card you paid with; no other
                money moves.
              </p>
            </div>`
          : ''
      }
      <h2 id="review-title">Operators' review</h2>
      <div class="table-wrap" role="region" aria-labelledby="review-title" tabindex="0">
        <table>
          <thead>
            <tr>
              <th>Operator</th>
              <th class="num">Kiosks</th>
              <th class="num">Amount</th>
              <th>Decision</th>
            </tr>
          </thead>
          <tbody>
            ${lines.map(
              (l) =>
                html`<tr>
                  <td>${l.operatorName}</td>
                  <td class="num">${l.machines}</td>
                  <td class="num">${usd(l.amountCents)}</td>
                  <td>
                    <span class="status ${l.status}">${STATUS[l.status] ?? l.status}</span
                    >${l.decidedAt ? html` <span class="muted small">${day(l.decidedAt)}</span>` : ''}${l.reason ? html`<br />Reason: ${l.reason}` : ''}${l.refund ? html`<br />${refundText(l)}` : ''}
                  </td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>
      ${extra}
      <h2>What you bought</h2>
      <div class="card">
        <dl class="facts">
          <dt>Sponsor</dt>
          <dd>${s.sponsorName} — ${SPONSOR_TYPE[s.sponsorType] ?? s.sponsorType}</dd>
          <dt>Where</dt>
          <dd>${reachText(s.reach)}</dd>
          <dt>When</dt>
          <dd>${day(s.flightStart)} to ${day(s.flightEnd)}</dd>
          <dt>Contact</dt>
          <dd>${s.buyer.name}, ${s.buyer.email}${s.buyer.phone ? html`, ${s.buyer.phone}` : ''}</dd>
          <dt>Paid</dt>
          <dd>${s.paidAt ? day(s.paidAt) : 'not yet'}</dd>
        </dl>
        ${s.creative.kind === 'image' ? html`<p><img class="preview" src="${s.creative.url}" alt="Your ad" /></p>` : html`<p>Your ad: a ${((s.creative.durationMs ?? 0) / 1000).toFixed(1)} s video.</p>`}
      </div>
      <h2>The price</h2>
      ${breakdown(s)}`,
  });
}
