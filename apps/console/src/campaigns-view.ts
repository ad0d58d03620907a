import { ApiError, unwrap, type Api } from './api.ts';
import { CreativeViewer } from './creative-viewer.ts';
import { el, money, when } from './dom.ts';
import { Screen, cents, countChart, currencyOf, day, facts, plural, span, table, type Cell, type Ok } from './money-parts.ts';

type Campaign = Ok<'/api/v1/campaigns', 'get'>['records'][number];
type Report = Ok<'/api/v1/campaigns/{id}/report', 'get'>;
type Summary = Ok<'/api/v1/campaigns/reports/summary', 'get'>;
type Purchase = Ok<'/api/v1/ad-purchases', 'get'>['records'][number];
type Line = Purchase['lines'][number];

/** What the page shows, each read from its own operation. */
interface Data {
  currency: string | null;
  campaigns: Campaign[];
  summary: Summary;
  pending: Purchase[];
  purchases: Purchase[];
}

async function load(api: Api): Promise<Data> {
  const [currency, campaigns, summary, pending, purchases] = await Promise.all([
    currencyOf(api),
    api.GET('/api/v1/campaigns', { params: { query: { size: 100 } } }),
    api.GET('/api/v1/campaigns/reports/summary'),
    api.GET('/api/v1/ad-purchases', { params: { query: { lineStatus: 'pending_approval', size: 50 } } }),
    api.GET('/api/v1/ad-purchases', { params: { query: { size: 20 } } }),
  ]);
  return {
    currency,
    campaigns: unwrap(campaigns).records,
    summary: unwrap(summary),
    pending: unwrap(pending).records,
    purchases: unwrap(purchases).records,
  };
}

/** Where a campaign plays: its machines, else its area. */
function reach(c: Campaign): string {
  if (c.targetMachines?.length) return c.targetMachines.join(', ');
  const g = c.targetGeo;
  if (!g) return 'no machines chosen';
  if (g.nationwide) return 'every machine (nationwide)';
  return [g.city, g.zips?.length ? `ZIP ${g.zips.join(', ')}` : null].filter((x) => x).join(' · ') || 'no machines chosen';
}

function pricing(c: Campaign, currency: string | null): string {
  return c.pricing.model === 'cpm'
    ? `${money(c.pricing.cpmRate, currency)} per 1,000 impressions (CPM)`
    : `${money(c.pricing.monthlyRatePerMachine, currency)} per machine per month`;
}

function purchaseReach(p: Purchase): string {
  const r = p.reach;
  if (r.kind === 'machine') return `machine ${r.machineNo ?? ''}`;
  if (r.kind === 'city') return `city: ${r.city ?? ''}`;
  if (r.kind === 'network') return 'the whole network';
  return `ZIP ${(r.zips ?? []).join(', ')}`;
}

/** The operator's own line of a purchase (an operator sees only theirs). */
const lineOf = (p: Purchase): Line | undefined => p.lines[0];

/**
 * `/console/campaigns`: the operator's campaigns (status, flight, machines, pricing) with their actions (activate,
 * pause, complete — each after a confirmation), a campaign's report (plays per machine, a chart), every campaign's
 * report with the loop's split, and the self-serve ad purchases: the ones waiting for approval (approve or reject
 * after a confirmation showing the buyer, the creative, the machines, the dates, the amount and the terms) and the
 * ones decided. Everything shown is what the API answered; every action is one API call, then the page is read again.
 */
class CampaignsView {
  private data: Data | null = null;
  private report: Report | null = null;
  private readonly viewer = new CreativeViewer();
  private readonly root = el('section', { class: 'view ledger', 'aria-labelledby': 'cmp-h' });
  private readonly screen = new Screen(
    () => this.refresh(),
    () => this.render(),
    this.root,
  );

  constructor(private readonly api: Api) {}

  async mount(): Promise<HTMLElement> {
    this.data = await load(this.api);
    this.render();
    return el('div', {}, this.root, this.screen.dialog, this.viewer.dialog);
  }

  private async refresh(): Promise<void> {
    this.data = await load(this.api);
    if (!this.report) return;
    try {
      this.report = unwrap(await this.api.GET('/api/v1/campaigns/{id}/report', { params: { path: { id: this.report.campaignId } } }));
    } catch (e) {
      // the campaign is gone (a rejected purchase's draft is removed): no report to show
      if (!(e instanceof ApiError) || e.status !== 404) throw e;
      this.report = null;
    }
  }

  private render(): void {
    const parts = [
      el('h1', { id: 'cmp-h' }, 'Campaigns'),
      this.screen.flash(),
      this.approvalsSection(),
      this.campaignsSection(),
      this.reportSection(),
      this.summarySection(),
      this.purchasesSection(),
    ];
    this.root.replaceChildren(...parts.filter((p) => p !== null));
  }

  private get cur(): string | null {
    return this.data!.currency;
  }

  // --- the campaigns --------------------------------------------------------------------------

  private campaignsSection(): HTMLElement {
    const list = this.data!.campaigns;
    return el(
      'section',
      // the list takes the whole width until a report stands beside it
      { class: this.report ? 'card' : 'card wide', 'aria-labelledby': 'cl-h' },
      el('h2', { id: 'cl-h' }, 'Your campaigns'),
      list.length === 0 ? el('p', {}, 'No campaigns yet.') : el('ul', { class: 'campaigns' }, ...list.map((c) => this.campaignItem(c))),
    );
  }

  private campaignItem(c: Campaign): HTMLElement {
    const s = this.screen;
    const buttons: HTMLButtonElement[] = [s.button('Report', () => void this.showReport(c), `Report of ${c.name}`)];
    if (c.status === 'draft' || c.status === 'paused') buttons.push(s.button('Activate', () => this.confirmStatus(c, 'activate'), `Activate ${c.name}`));
    if (c.status === 'active') buttons.push(s.button('Pause', () => this.confirmStatus(c, 'pause'), `Pause ${c.name}`));
    if (c.status === 'active' || c.status === 'paused') buttons.push(s.button('Complete', () => this.confirmStatus(c, 'complete'), `Complete ${c.name}`));
    return el(
      'li',
      { class: 'campaign', 'data-campaign': c.id },
      el('h3', {}, c.name, el('span', { class: `badge ${c.status}` }, c.status)),
      el('p', { class: 'sub' }, `${c.sponsorName} · ${c.sponsorType === 'brand-coop' ? 'brand co-op' : 'local business'}`),
      facts([
        ['Flight', span(c.flightStart, c.flightEnd)],
        ['Machines', reach(c)],
        ['Pricing', pricing(c, this.cur)],
        ['Creative', c.creative ? `${c.creative.kind} ${c.creative.width}×${c.creative.height}` : 'none yet'],
      ]),
      el('div', { class: 'actions' }, ...buttons),
    );
  }

  private confirmStatus(c: Campaign, to: 'activate' | 'pause' | 'complete'): void {
    const words = {
      activate: { title: `Activate ${c.name}?`, lead: 'It goes on air on the machines below.', confirm: 'Activate', done: `${c.name} is active` },
      pause: { title: `Pause ${c.name}?`, lead: 'It stops playing until you activate it again.', confirm: 'Pause', done: `${c.name} is paused` },
      complete: {
        title: `Complete ${c.name}?`,
        lead: 'Completing is final: it cannot be activated again.',
        confirm: 'Complete',
        done: `${c.name} is completed`,
      },
    }[to];
    const path = { id: c.id };
    const calls = {
      activate: () => this.api.POST('/api/v1/campaigns/{id}/activate', { params: { path } }),
      pause: () => this.api.POST('/api/v1/campaigns/{id}/pause', { params: { path } }),
      complete: () => this.api.POST('/api/v1/campaigns/{id}/complete', { params: { path } }),
    };
    this.screen.confirm({
      ...words,
      facts: [
        ['Sponsor', c.sponsorName],
        ['Status now', c.status],
        ['Machines', reach(c)],
        ['Flight', span(c.flightStart, c.flightEnd)],
        ['Pricing', pricing(c, this.cur)],
      ],
      call: calls[to],
    });
  }

  // --- a campaign's report ---------------------------------------------------------------------

  private async showReport(c: Campaign): Promise<void> {
    try {
      this.report = unwrap(await this.api.GET('/api/v1/campaigns/{id}/report', { params: { path: { id: c.id } } }));
    } catch (e) {
      return this.screen.show(e instanceof Error ? e.message : String(e), true);
    }
    this.render();
    const h = this.root.querySelector<HTMLElement>('#rp-h');
    if (h) {
      h.tabIndex = -1;
      h.focus();
    }
  }

  private reportSection(): HTMLElement | null {
    const r = this.report;
    if (!r) return null;
    const byMachine = r.playsByMachine;
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'rp-h', id: 'report' },
      el('h2', { id: 'rp-h' }, `Report: ${r.name}`),
      facts(
        [
          ['Status', r.status],
          ['Plays', String(r.plays)],
          ['Est. impressions', String(r.estImpressions)],
          ['Est. revenue', money(r.estRevenue, this.cur)],
          ['Est. monthly value', money(r.estMonthlyValue, this.cur)],
          ['Machines', String(r.machines)],
          ['Pricing', r.pricingModel === 'cpm' ? 'CPM' : 'flat monthly'],
          ['Last play', when(r.lastPlayAt)],
        ],
        'figures report-figures',
      ),
      byMachine.length === 0
        ? el('p', {}, 'No plays yet.')
        : el(
            'div',
            {},
            table(
              `Plays of ${r.name} per machine`,
              ['Machine', 'Plays'],
              byMachine.map((m) => [m.machineNo, String(m.plays)]),
              ['Total', String(r.plays)],
            ),
            countChart(
              `Plays of ${r.name} per machine`,
              'play',
              byMachine.map((m) => ({ label: m.machineNo, value: m.plays })),
            ),
          ),
    );
  }

  // --- every campaign's report ------------------------------------------------------------------

  private summarySection(): HTMLElement {
    const s = this.data!.summary;
    const cur = this.cur;
    const pct = (share: number) => `${Math.round(share * 100)}%`;
    const loop = s.loop;
    return el(
      'section',
      { class: 'card wide', 'aria-labelledby': 'sm-h' },
      el('h2', { id: 'sm-h' }, 'Every campaign’s report'),
      s.campaigns.length === 0
        ? el('p', {}, 'No campaign has a report yet.')
        : table(
            'Plays, estimated impressions and revenue of each campaign',
            ['Campaign', 'Status', 'Machines', 'Plays', 'Est. impressions', 'Est. revenue'],
            s.campaigns.map((c) => [c.name, c.status, String(c.machines), String(c.plays), String(c.estImpressions), money(c.estRevenue, cur)]),
            ['Total est. revenue', null, null, null, null, money(s.estRevenue, cur)],
          ),
      table(
        `The screens’ loop: ${plural(loop.plays, 'play')}`,
        ['Source', 'Plays', 'Share', 'Est. impressions'],
        [
          ['Direct-sold', String(loop['direct-sold'].plays), pct(loop['direct-sold'].share), String(loop['direct-sold'].estImpressions)],
          ['Programmatic', String(loop.programmatic.plays), pct(loop.programmatic.share), String(loop.programmatic.estImpressions)],
          ['House', String(loop.house.plays), pct(loop.house.share), String(loop.house.estImpressions)],
        ],
      ),
    );
  }

  // --- the ad purchases ---------------------------------------------------------------------------

  private approvalsSection(): HTMLElement {
    const pending = this.data!.pending;
    return el(
      'section',
      { class: 'card wide', 'aria-labelledby': 'ap-h' },
      el('h2', { id: 'ap-h' }, 'Ad purchases waiting for your approval'),
      pending.length === 0
        ? el('p', {}, 'Nothing is waiting for your approval.')
        : el('ul', { class: 'campaigns purchases' }, ...pending.map((p) => this.pendingItem(p))),
    );
  }

  private pendingItem(p: Purchase): HTMLElement {
    const line = lineOf(p);
    const s = this.screen;
    return el(
      'li',
      { class: 'campaign purchase', 'data-purchase': p.id },
      el('h3', {}, p.sponsorName),
      el('p', { class: 'sub' }, `Bought by ${p.buyer.name} (${p.buyer.email}) · paid ${when(p.paidAt)}`),
      facts([
        ['Your amount', line ? cents(line.amountCents, p.currency) : 'none'],
        ['Your machines', line ? line.machineNos.join(', ') : 'none'],
        ['Flight', span(p.flightStart, p.flightEnd)],
      ]),
      el(
        'div',
        { class: 'actions' },
        s.button('Approve…', () => this.confirmDecision(p, 'approve'), `Approve ${p.sponsorName}`),
        s.button('Reject…', () => this.confirmDecision(p, 'reject'), `Reject ${p.sponsorName}`),
      ),
    );
  }

  /**
   * The creative as the buyer sent it: an image on this origin is shown, with a button opening it full size (the
   * thumbnail is too small to judge an ad by); a video is a link (the page plays no media).
   */
  private creative(p: Purchase): Node {
    const c = p.creative;
    const local = c.url.startsWith('/') && !c.url.startsWith('//');
    const what = `${c.kind} ${c.width}×${c.height}${c.durationMs !== null ? `, ${Math.round(c.durationMs / 1000)} s` : ''}`;
    if (c.kind === 'image' && local) {
      const alt = `The creative of ${p.sponsorName}`;
      return el(
        'figure',
        { class: 'creative' },
        el('img', { src: c.url, alt, width: c.width, height: c.height }),
        el(
          'figcaption',
          {},
          `${what} `,
          this.screen.button(
            'View full size',
            () => this.viewer.open({ url: c.url, alt, width: c.width, height: c.height, title: `${p.sponsorName}: the creative, ${what}` }),
            `View full size: the creative of ${p.sponsorName}`,
          ),
        ),
      );
    }
    return el(
      'p',
      { class: 'creative' },
      local ? el('a', { href: c.url, target: '_blank', rel: 'noopener' }, `Open the ${what} in a new tab`) : `The creative: ${what} at ${c.url}`,
    );
  }

  private confirmDecision(p: Purchase, decision: 'approve' | 'reject'): void {
    const line = lineOf(p);
    const amount = line ? cents(line.amountCents, p.currency) : cents(0, p.currency);
    const terms: [string, Cell][] = [
      ['Sponsor', `${p.sponsorName} (${p.sponsorType === 'brand-coop' ? 'brand co-op' : 'local business'})`],
      ['Buyer', [p.buyer.name, p.buyer.email, p.buyer.phone].filter((x) => x).join(' · ')],
      ['Your machines', line ? `${line.machineNos.join(', ')} (${plural(line.machines, 'machine')})` : 'none'],
      ['Flight', `${day(p.flightStart)} – ${day(p.flightEnd)}`],
      ['Reach bought', purchaseReach(p)],
      [
        'Terms',
        `${plural(p.slots, 'slot')} × ${plural(p.months, 'month')} at ${cents(p.monthlyRatePerMachineCents, p.currency)} per machine per month (catalog ${p.catalogVersion})`,
      ],
      ['Your amount', el('strong', { class: 'amount' }, amount)],
      ['Purchase total', cents(p.totalCents, p.currency)],
    ];
    const preview = this.creative(p);
    if (decision === 'approve') {
      this.screen.confirm({
        title: `Approve ${p.sponsorName}?`,
        lead: 'On approval your campaign for this purchase goes on air at once on your machines below.',
        facts: terms,
        extra: [preview],
        confirm: `Approve ${amount}`,
        done: `${p.sponsorName} approved: its campaign is on air`,
        call: () => this.api.POST('/api/v1/ad-purchases/{id}/approve', { params: { path: { id: p.id } }, body: {} }),
      });
      return;
    }
    const reason = el('textarea', { id: 'reject-reason', name: 'reason', rows: 3, maxlength: 500, 'aria-required': 'true' });
    this.screen.confirm({
      title: `Reject ${p.sponsorName}?`,
      lead: 'Its draft campaign is removed and your amount is owed back to the buyer (refunded by hand; no money moves here).',
      facts: terms,
      extra: [preview, el('p', { class: 'field' }, el('label', { for: 'reject-reason' }, 'Reason (the buyer sees it)'), reason)],
      confirm: `Reject ${amount}`,
      done: `${p.sponsorName} rejected`,
      check: () => (reason.value.trim() === '' ? 'Write the reason the buyer will see.' : null),
      call: () => this.api.POST('/api/v1/ad-purchases/{id}/reject', { params: { path: { id: p.id } }, body: { reason: reason.value.trim() } }),
    });
  }

  private purchasesSection(): HTMLElement {
    const list = this.data!.purchases;
    return el(
      'section',
      { class: 'card wide', 'aria-labelledby': 'pl-h' },
      el('h2', { id: 'pl-h' }, 'Ad purchases'),
      list.length === 0
        ? el('p', {}, 'No ad purchases yet.')
        : table(
            'Paid ad purchases with a line of yours, newest first',
            ['Sponsor', 'Buyer', 'Flight', 'Your amount', 'Your line', 'Decided', 'Refund'],
            list.map((p) => {
              const line = lineOf(p);
              return [
                p.sponsorName,
                p.buyer.name,
                span(p.flightStart, p.flightEnd),
                line ? cents(line.amountCents, p.currency) : '',
                el('span', { class: `badge ${line?.status ?? ''}`, 'data-purchase-status': p.id }, line?.status.replace('_', ' ') ?? p.status),
                line?.decidedAt ? `${when(line.decidedAt)}${line.reason ? ` — “${line.reason}”` : ''}` : 'not yet',
                line ? this.refundCell(p, line) : null,
              ];
            }),
          ),
    );
  }

  /** A rejected line's refund: its state (owed, issued with the processor's id, failed with its reason) and, until issued, the button. */
  private refundCell(p: Purchase, line: Line): Cell {
    const r = line.refund;
    if (!r) return line.status === 'rejected' ? 'none owed' : '';
    const amount = cents(r.amountCents, p.currency);
    const state = {
      owed: `${amount} owed to the buyer`,
      issued: `${amount} issued${r.refundId ? ` (refund ${r.refundId})` : ''}${r.at ? ` ${when(r.at)}` : ''}`,
      failed: `${amount} failed: ${r.reason ?? 'no reason given'}`,
    }[r.status];
    return el(
      'div',
      { class: 'refund' },
      el('span', { class: `badge refund-${r.status}`, 'data-refund-status': p.id }, r.status),
      ' ',
      el('span', {}, state),
      r.status === 'issued'
        ? null
        : this.screen.button(`Refund ${amount}`, () => this.confirmRefund(p, line), `Refund ${amount} to the buyer of ${p.sponsorName}`),
    );
  }

  private confirmRefund(p: Purchase, line: Line): void {
    const r = line.refund!;
    const amount = cents(r.amountCents, p.currency);
    this.screen.confirm({
      title: `Refund ${p.sponsorName}?`,
      lead: `The payment processor pays ${amount} back to the buyer’s card now. This cannot be undone.`,
      facts: [
        ['Buyer', [p.buyer.name, p.buyer.email].join(' · ')],
        ['Rejected', `${when(line.decidedAt)}${line.reason ? ` — “${line.reason}”` : ''}`],
        ['Refund now', r.status === 'failed' ? `failed: ${r.reason ?? 'no reason given'} (this tries again)` : 'owed'],
        ['Paid through', p.paymentProcessor],
        ['Amount', el('strong', { class: 'amount' }, amount)],
      ],
      confirm: `Refund ${amount}`,
      done: (data) => {
        const issued = (data as Purchase).lines[0]?.refund;
        return `Refund issued: ${amount} to ${p.buyer.name}${issued?.refundId ? ` (refund ${issued.refundId})` : ''}`;
      },
      // 502: the processor refused and the line now says so; 503: it was not reached and nothing was recorded
      refused: (e) =>
        e.status === 502
          ? { text: `Refund failed: ${e.message}. The line shows the reason; you can try again.`, close: true }
          : e.status === 503
            ? { text: `The payment processor is unreachable: nothing was recorded and no money moved. Try again in a moment. (${e.message})`, close: false }
            : null,
      call: () => this.api.POST('/api/v1/ad-purchases/{id}/refund', { params: { path: { id: p.id } }, body: {} }),
    });
  }
}

export async function campaignsView(api: Api): Promise<HTMLElement> {
  return new CampaignsView(api).mount();
}
