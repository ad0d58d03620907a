import { html, layout, type SafeHtml } from '../../http/html.ts';
import type { AdPurchase } from '../ad-purchases/ad-purchases.schemas.ts';
import { reachText } from './buyer.pages.ts';
import { csrfInput, errorSummary, field, fieldId, type FieldErrors } from './form-ui.ts';
import { day, usd } from './page-common.ts';
import { signedInHeader } from './signin.pages.ts';

const STATUS: Record<string, string> = {
  awaiting_payment: 'Awaiting payment',
  pending_approval: 'Waiting for review',
  approved: 'Approved',
  partially_approved: 'Partly approved',
  rejected: 'Rejected',
};

/** The id of a line's reject-reason field (one per purchase and operator). */
export const reasonFieldName = (purchaseId: string, operatorEmail: string) => `reason-${purchaseId}-${operatorEmail}`;

export interface ApprovalsPageInput {
  operator: { email: string; admin: boolean };
  csrf: string;
  show: 'pending' | 'all';
  purchases: AdPurchase[];
  total: number;
  page: number;
  size: number;
  /** A decision just recorded, or why one was refused. */
  notice?: { kind: 'ok' | 'error'; text: string } | null;
  /** A reject form's error, by reasonFieldName. */
  errors?: FieldErrors;
  /** Values typed into reject forms, kept on a re-render. */
  reasons?: Record<string, string>;
}

function purchaseCard(p: AdPurchase, input: ApprovalsPageInput): SafeHtml {
  const errors = input.errors ?? {};
  const c = p.creative;
  return html`<article class="card purchase" aria-labelledby="h-${p.id}">
    <h2 id="h-${p.id}">${p.sponsorName} <span class="status ${p.status}">${STATUS[p.status] ?? p.status}</span></h2>
    <div class="decide">
      ${c.kind === 'image' ? html`<img class="thumb" src="${c.url}" alt="The ad of ${p.sponsorName}" />` : html`<p><a href="${c.url}">The ad (a ${((c.durationMs ?? 0) / 1000).toFixed(1)} s video)</a></p>`}
      <dl class="facts">
        <dt>Buyer</dt>
        <dd>${p.buyer.name}, <a href="mailto:${p.buyer.email}">${p.buyer.email}</a>${p.buyer.phone ? html`, ${p.buyer.phone}` : ''}</dd>
        <dt>Sponsor</dt>
        <dd>${p.sponsorType === 'brand-coop' ? 'Brand co-op' : 'Local business'}</dd>
        <dt>Reach</dt>
        <dd>${reachText(p.reach)}</dd>
        <dt>Flight</dt>
        <dd>${day(p.flightStart)} to ${day(p.flightEnd)} · ${p.slots === 2 ? 'double (2 slots)' : 'standard (1 slot)'}</dd>
        <dt>Paid</dt>
        <dd>${p.paidAt ? html`${day(p.paidAt)} · ${usd(p.totalCents)} in all` : 'not yet'}</dd>
      </dl>
    </div>
    ${p.lines.map((l) => {
      const name = reasonFieldName(p.id, l.operatorEmail);
      const decidable = l.status === 'pending_approval' && p.status !== 'awaiting_payment';
      const who = input.operator.admin ? html`<input type="hidden" name="operatorEmail" value="${l.operatorEmail}" />` : '';
      return html`<section class="line" aria-label="${input.operator.admin ? `Line of ${l.operatorEmail}` : 'Your kiosks'}">
        <h3>
          ${input.operator.admin ? html`${l.operatorName} (${l.operatorEmail})` : 'Your kiosks'}: ${l.machines} kiosk${l.machines === 1 ? '' : 's'} ·
          ${usd(l.amountCents)}
          <span class="status ${l.status}">${STATUS[l.status] ?? l.status}</span>
        </h3>
        <p class="muted small">${l.machineNos.join(', ')}${l.campaignId ? html` · campaign <code>${l.campaignId}</code>` : ''}</p>
        ${l.reason ? html`<p>Reason given: ${l.reason}</p>` : ''}
        ${
          decidable
            ? html`<div class="decide">
                <form method="post" action="/advertise/approvals/${p.id}/approve">
                  ${csrfInput(input.csrf)}${who}
                  <button type="submit" aria-label="Approve the ad of ${p.sponsorName}${input.operator.admin ? ` for ${l.operatorEmail}` : ''}">Approve</button>
                </form>
                <form method="post" action="/advertise/approvals/${p.id}/reject" novalidate>
                  ${csrfInput(input.csrf)}${who}
                  ${field({ name: 'reason', id: fieldId(name), label: 'Reason for declining (the buyer sees it)', type: 'text', value: input.reasons?.[name], error: errors[name], maxlength: 500 })}
                  <button type="submit" class="danger" aria-label="Reject the ad of ${p.sponsorName}${input.operator.admin ? ` for ${l.operatorEmail}` : ''}">
                    Reject
                  </button>
                </form>
              </div>`
            : ''
        }
      </section>`;
    })}
  </article>`;
}

/** The operator's queue of self-serve ads on its machines (admins: every purchase), with Approve and Reject. */
export function approvalsPage(input: ApprovalsPageInput): SafeHtml {
  const pages = Math.max(1, Math.ceil(input.total / input.size));
  const link = (show: string, page: number) => `/advertise/approvals?show=${show}&page=${page}`;
  return layout({
    title: `${input.errors && Object.keys(input.errors).length ? 'Error: ' : ''}Ads to review`,
    header: signedInHeader({ ...input.operator, csrf: input.csrf }),
    body: html`<h1>Ads to review</h1>
      <p>
        ${input.operator.admin ? 'Every self-serve purchase.' : 'Self-serve ads bought on your kiosks.'} Approving puts your part on air at once; declining
        refunds your part to the buyer (by hand) and shows them your reason.
      </p>
      <nav aria-label="Which purchases">
        <p>
          ${input.show === 'pending' ? html`<b>Waiting for review</b> · <a href="${link('all', 1)}">All</a>` : html`<a href="${link('pending', 1)}">Waiting for review</a> · <b>All</b>`}
        </p>
      </nav>
      ${input.notice ? html`<div class="notice${input.notice.kind === 'error' ? ' warn' : ''}" role="status"><p>${input.notice.text}</p></div>` : ''}
      ${errorSummary(input.errors ?? {})}
      ${input.purchases.length ? input.purchases.map((p) => purchaseCard(p, input)) : html`<p>${input.show === 'pending' ? 'Nothing is waiting for your review.' : 'No purchases yet.'}</p>`}
      ${pages > 1 ? html`<nav aria-label="Pages"><p>${input.page > 1 ? html`<a href="${link(input.show, input.page - 1)}">Previous</a> ` : ''}Page ${input.page} of ${pages}${input.page < pages ? html` <a href="${link(input.show, input.page + 1)}">Next</a>` : ''}</p></nav>` : ''}`,
  });
}
