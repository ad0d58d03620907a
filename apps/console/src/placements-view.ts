import { ApiError, unwrap, type Api } from './api.ts';
import { el, money, when } from './dom.ts';
import { confirmStep, flashLine, plural, sayFlash, table, wordsOf, type Answer, type Flash, type Ok } from './fleet-parts.ts';

type CheckpointPage = Ok<'/api/v1/dfy/checkpoints', 'get'>;
type Checkpoint = CheckpointPage['records'][number];
type DealPage = Ok<'/api/v1/dfy/deals', 'get'>;
type Deal = DealPage['records'][number];
type Kind = Checkpoint['kind'];
type Stage = Deal['stage'];

/** How many open checkpoints and deals one read shows (the API's largest page). */
const PAGE = 100;

/** The stages in the pipeline's order: only how the deals are listed (the API decides every move). */
const STAGE_ORDER: readonly Stage[] = [
  'shortlisting',
  'pre_ordered',
  'outreach',
  'lease_chat',
  'lease_sent',
  'signed',
  'ready_to_ship',
  'shipped',
  'installing',
  'live',
  'cancelled',
];

/** What each checkpoint kind asks of the operator, in words (docs/dfy.md "Checkpoints and the inbox"). */
const ASKS: Record<Kind, string> = {
  scout_outreach: 'Choose a venue from the scout’s shortlist',
  negotiation_target: 'Start the negotiation',
  negotiation_review: 'Review the agreed terms',
  terms_approval: 'Approve terms near the mandate’s edge',
  lease_send: 'Send the lease',
  money: 'Pay for the machine',
  cashless_fail: 'The payment terminal could not be bound: bind it by hand, then acknowledge',
  call_outcome: 'Record the outcome of a voice call, then acknowledge',
  contact_verify: 'Check the venue’s contact details, then acknowledge',
  mode_resume: 'The deal’s automation is paused: acknowledge',
  reply_review: 'Read the venue’s reply, then acknowledge',
  inventory_cap: 'A supplier order is over the monthly cap',
};

const words = (s: string) => s.replace(/_/g, ' ');
const pct = (n: number) => `${n}%`;
const months = (n: number) => `${n} month${n === 1 ? '' : 's'}`;
/** Every amount of the pipeline is the catalog's, in US dollars (GET /api/v1/dfy/catalog answers currency USD). */
const usd = (n: number) => money(n, 'USD');

/** A deal's name in the inbox: its venue, else the operator's note, else its id. */
function dealName(d: Deal | undefined, id: string): string {
  return d?.venue?.name ?? d?.note ?? id;
}

interface Data {
  open: CheckpointPage;
  deals: DealPage;
}

async function load(api: Api): Promise<Data> {
  const [open, deals] = await Promise.all([
    api.GET('/api/v1/dfy/checkpoints', { params: { query: { resolved: 'false', size: PAGE } } }),
    api.GET('/api/v1/dfy/deals', { params: { query: { size: PAGE } } }),
  ]);
  return { open: unwrap(open), deals: unwrap(deals) };
}

/**
 * `/console/placements`: the done-for-you pipeline's checkpoint inbox — each open checkpoint with its deal (venue,
 * stage), what it asks and its action — and the deals by stage. Every confirm gate (start the negotiation, approve
 * terms, send the lease, pay) is a `<dialog>` showing the terms or the amount the API answers, confirmed by an
 * explicit click; every action is one API call, then the inbox is read again.
 */
export async function placementsView(api: Api): Promise<HTMLElement> {
  return new PlacementsView(api).mount();
}

class PlacementsView {
  private data: Data | null = null;
  private readonly root = el('section', { class: 'view placements', 'aria-labelledby': 'pl-h' });
  private readonly dialog = el('dialog', { class: 'dialog', 'aria-labelledby': 'dlg-h' });
  private message: Flash | null = null;

  constructor(private readonly api: Api) {}

  async mount(): Promise<HTMLElement> {
    try {
      this.data = await load(this.api);
    } catch (e) {
      // a session the pipeline is closed to (an access group, a key without machines:read): the API's words
      if (!(e instanceof ApiError) || e.status !== 403) throw e;
      return el(
        'section',
        { class: 'view placements', 'aria-labelledby': 'pl-h' },
        el('h1', { id: 'pl-h' }, 'Placements'),
        el('p', { class: 'flash error' }, e.message),
      );
    }
    this.render();
    return el('div', {}, this.root, this.dialog);
  }

  private deal(id: string): Deal | undefined {
    return this.data!.deals.records.find((d) => d.id === id);
  }

  private render(): void {
    this.root.replaceChildren(el('h1', { id: 'pl-h' }, 'Placements'), flashLine(this.message), this.inbox(), this.dealsSection());
  }

  private inbox(): HTMLElement {
    const { records, total } = this.data!.open;
    const items = records.map((c) => this.checkpointItem(c));
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'inbox-h' },
      el('h2', { id: 'inbox-h' }, 'Checkpoint inbox'),
      el('p', { class: 'sub' }, total > records.length ? `${records.length} shown of ${total} open checkpoints` : plural(total, 'open checkpoint')),
      items.length ? el('ul', { class: 'inbox' }, ...items) : el('p', {}, 'Nothing waits for you: no open checkpoint.'),
    );
  }

  private checkpointItem(c: Checkpoint): HTMLElement {
    const d = this.deal(c.dealId);
    const name = dealName(d, c.dealId);
    return el(
      'li',
      { class: 'checkpoint', 'data-checkpoint': c.id, 'data-kind': c.kind, 'aria-labelledby': `cp-${c.id}` },
      el('h3', { id: `cp-${c.id}` }, ASKS[c.kind]),
      el(
        'p',
        { class: 'deal-line' },
        el('b', {}, name),
        ' · ',
        el('span', { class: 'badge stage' }, words(c.dealStage)),
        d ? ` · ${d.tier} · ${c.dealId}` : ` · ${c.dealId}`,
      ),
      c.detail ? el('p', { class: 'detail' }, c.detail) : null,
      el('p', { class: 'meta' }, `${words(c.kind)} · raised ${when(c.raisedAt)} by ${c.raisedBy} · resolved by ${c.resolvesWith}`),
      el('div', { class: 'actions' }, ...this.actionsFor(c, name)),
    );
  }

  private button(label: string, aria: string, onClick: () => void, primary = false): HTMLButtonElement {
    const b = el('button', { type: 'button', 'aria-label': aria, class: primary ? 'primary' : null }, label);
    b.addEventListener('click', onClick);
    return b;
  }

  /** The action that answers each kind (docs/dfy.md's table); a kind the inbox cannot act on says where it is answered. */
  private actionsFor(c: Checkpoint, name: string): Node[] {
    const on = ` for ${name}`;
    switch (c.kind) {
      case 'scout_outreach':
        return [this.button('Choose a venue…', `Choose a venue${on}`, () => void this.chooseVenue(c, name), true)];
      case 'negotiation_target':
        return [this.button('Start negotiation…', `Start negotiation${on}`, () => void this.startNegotiation(c, name), true)];
      case 'negotiation_review':
        return [this.button('Review terms…', `Review terms${on}`, () => void this.withDeal(c.dealId, (d) => this.reviewTerms(d, name)), true)];
      case 'terms_approval':
        return [this.button('Approve terms…', `Approve terms${on}`, () => void this.withDeal(c.dealId, (d) => this.approveTerms(d, c, name)), true)];
      case 'lease_send':
        return [this.button('Send lease…', `Send lease${on}`, () => void this.withDeal(c.dealId, (d) => this.sendLease(d, name)), true)];
      case 'money':
        return [this.button('Pay…', `Pay${on}`, () => void this.withDeal(c.dealId, (d) => this.pay(d, name)), true)];
      case 'inventory_cap':
        return [el('p', { class: 'meta' }, 'Approve or refuse the order with the machine’s supplier orders (POST /api/v1/dfy/inventory/orders/{id}/approve).')];
      case 'cashless_fail':
      case 'call_outcome':
      case 'contact_verify':
      case 'mode_resume':
      case 'reply_review':
        return [
          this.button(
            'Acknowledge',
            `Acknowledge ${words(c.kind)}${on}`,
            () =>
              void this.act(
                `Acknowledged: ${words(c.kind)} for ${name}`,
                this.api.POST('/api/v1/dfy/checkpoints/{checkpointId}/acknowledge', { params: { path: { checkpointId: c.id } } }),
              ),
          ),
        ];
    }
  }

  /** Reads the deal as the API answers it now, then opens its dialog; a refusal is the flash. */
  private async withDeal(dealId: string, open: (d: Deal) => void): Promise<void> {
    try {
      open(unwrap(await this.api.GET('/api/v1/dfy/deals/{dealId}', { params: { path: { dealId } } })));
    } catch (e) {
      this.say({ text: wordsOf(e), error: true });
    }
  }

  /** A confirm gate: the dialog's confirm button is the one call; the flash then says the stage the API answers. */
  private gate(o: { title: string; content: (Node | string)[]; confirm: string; done: string; call: () => Promise<Answer> }): void {
    let after: (Deal & { payment?: { checkoutUrl: string } }) | null = null;
    confirmStep(this.dialog, {
      title: o.title,
      content: o.content,
      confirm: o.confirm,
      call: async () => {
        const r = await o.call();
        const data = r.data?.data as Partial<Deal> | undefined;
        if (r.response.ok && data && typeof data.stage === 'string') after = data as Deal;
        return r;
      },
      // with a real processor a payment is not made by the answer: the deal waits, and the operator pays on its page
      done: () =>
        after?.payment ? location.assign(after.payment.checkoutUrl) : this.reload(after ? `${o.done}: the deal is now ${words(after.stage)}` : o.done),
    });
  }

  private terms(d: Deal): HTMLElement {
    const t = d.negotiation.terms;
    const row = (k: string, v: string) => el('div', {}, el('dt', {}, k), el('dd', {}, v));
    if (!t) return el('p', {}, 'No terms are recorded on this deal.');
    return el(
      'dl',
      { class: 'terms' },
      row('Venue', d.venue ? `${d.venue.name}${d.venue.address ? `, ${d.venue.address}` : ''}` : 'not named'),
      row('Revenue share (commission to the venue)', pct(t.revenueSharePct)),
      row('Length', months(t.termMonths)),
      row('Rounds', String(t.rounds)),
      row('Out-of-mandate asks', String(t.outOfMandateAsks)),
      row('Machine', `${d.tier} at ${usd(d.priceUsd)}`),
    );
  }

  private reviewTerms(d: Deal, name: string): void {
    this.gate({
      title: `Review the terms for ${name}`,
      content: [
        el('p', { class: 'confirm' }, 'The terms the negotiation converged on:'),
        this.terms(d),
        el('p', {}, 'Reviewing them moves the deal to the lease chat.'),
      ],
      confirm: 'Mark terms reviewed',
      done: `Terms reviewed for ${name}`,
      call: () => this.api.POST('/api/v1/dfy/deals/{dealId}/negotiation/review', { params: { path: { dealId: d.id } } }),
    });
  }

  private approveTerms(d: Deal, c: Checkpoint, name: string): void {
    const reasons = d.negotiation.approvalReasons.length ? d.negotiation.approvalReasons : c.detail ? [c.detail] : [];
    this.gate({
      title: `Approve the terms for ${name}?`,
      content: [
        el('p', { class: 'confirm' }, 'These terms are near the edge of your mandate:'),
        this.terms(d),
        reasons.length ? el('ul', { class: 'reasons' }, ...reasons.map((r) => el('li', {}, r))) : null,
      ].filter((n) => n !== null),
      confirm: 'Approve these terms',
      done: `Terms approved for ${name}`,
      call: () => this.api.POST('/api/v1/dfy/deals/{dealId}/negotiation/approve-terms', { params: { path: { dealId: d.id } }, body: { confirm: true } }),
    });
  }

  private sendLease(d: Deal, name: string): void {
    this.gate({
      title: `Send the lease for ${name}?`,
      content: [el('p', { class: 'confirm' }, 'The lease goes to the venue on these terms:'), this.terms(d)],
      confirm: 'Send the lease',
      done: `Lease sent for ${name}`,
      call: () => this.api.POST('/api/v1/dfy/deals/{dealId}/lease/send', { params: { path: { dealId: d.id } }, body: { confirm: true } }),
    });
  }

  private pay(d: Deal, name: string): void {
    const amount = usd(d.priceUsd);
    this.gate({
      title: `Pay for the machine for ${name}?`,
      content: [
        el(
          'p',
          { class: 'confirm' },
          'Pay ',
          el('b', { class: 'amount' }, amount),
          ` for the ${d.tier} machine (${d.hardwareVariant} cabinet), at the catalog price.`,
        ),
        d.money.preorderPaidUsd > 0
          ? el('p', {}, `Already paid up front: ${usd(d.money.preorderPaidUsd)}.`)
          : el('p', {}, 'Refundable until the machine ships.'),
      ],
      confirm: `Pay ${amount}`,
      done: `Paid ${amount} for ${name}`,
      call: () => this.api.POST('/api/v1/dfy/deals/{dealId}/order/checkout', { params: { path: { dealId: d.id } }, body: { confirm: true } }),
    });
  }

  private async startNegotiation(c: Checkpoint, name: string): Promise<void> {
    let n;
    try {
      n = unwrap(await this.api.GET('/api/v1/dfy/deals/{dealId}/negotiation', { params: { path: { dealId: c.dealId } } }));
    } catch (e) {
      return this.say({ text: wordsOf(e), error: true });
    }
    const m = n.mandate?.mandate;
    const row = (k: string, v: string) => el('div', {}, el('dt', {}, k), el('dd', {}, v));
    this.gate({
      title: `Start the negotiation for ${name}?`,
      content: m
        ? [
            el('p', { class: 'confirm' }, `The engine negotiates within your mandate (version ${n.mandate!.version}, ${words(n.mandate!.vertical)}):`),
            el(
              'dl',
              { class: 'terms' },
              row('Revenue share', `${pct(m.revenueShareTargetPct)} target, ${pct(m.revenueShareMaxPct)} at most`),
              row('Length', `${months(m.termTargetMonths)} target (${m.termMinMonths}–${m.termMaxMonths} months)`),
              row('Install window', `${m.installWindow.earliest} to ${m.installWindow.latest}`),
              row('Power', m.powerArrangements.map(words).join(', ') || 'none named'),
              row('Deal breakers', m.dealBreakers.map(words).join(', ') || 'none'),
            ),
          ]
        : [el('p', { class: 'confirm' }, 'No mandate is set for this deal yet.')],
      confirm: 'Start the negotiation',
      done: `Negotiation started for ${name}`,
      call: () => this.api.POST('/api/v1/dfy/deals/{dealId}/negotiation/start', { params: { path: { dealId: c.dealId } }, body: { confirm: true } }),
    });
  }

  private async chooseVenue(c: Checkpoint, name: string): Promise<void> {
    let list;
    try {
      list = unwrap(await this.api.GET('/api/v1/dfy/deals/{dealId}/shortlist', { params: { path: { dealId: c.dealId } } }));
    } catch (e) {
      return this.say({ text: wordsOf(e), error: true });
    }
    const radios = list.records
      .slice(0, 5)
      .map((v, i) =>
        el(
          'p',
          { class: 'field check' },
          el('input', { type: 'radio', name: 'venue', id: `venue-${i}`, value: v.id, required: true }),
          el('label', { for: `venue-${i}` }, el('b', {}, v.name), ` — score ${v.score}${v.distanceKm === null ? '' : `, ${v.distanceKm} km`}`),
        ),
      );
    const picked = () => this.dialog.querySelector<HTMLInputElement>('input[name="venue"]:checked');
    this.gate({
      title: `Choose a venue for ${name}`,
      content: radios.length
        ? [el('fieldset', {}, el('legend', {}, 'The scout’s shortlist, best first'), ...radios)]
        : [el('p', {}, 'The directory has no venue to shortlist for this deal.')],
      confirm: 'Accept venue',
      done: `Venue accepted for ${name}`,
      call: () =>
        this.api.POST('/api/v1/dfy/deals/{dealId}/shortlist/accept', { params: { path: { dealId: c.dealId } }, body: { venueId: picked()?.value ?? '' } }),
    });
  }

  private dealsSection(): HTMLElement {
    const { records, total } = this.data!.deals;
    const rank = (s: Stage) => STAGE_ORDER.indexOf(s);
    const sorted = [...records].sort((a, b) => rank(a.stage) - rank(b.stage));
    const rows = sorted.map((d) => [
      el('span', {}, dealName(d, d.id), el('small', {}, ` ${d.id}`)),
      el('span', { class: 'badge stage' }, words(d.stage)),
      `${d.tier} · ${usd(d.priceUsd)}`,
      d.openCheckpoints.length ? d.openCheckpoints.map((k) => words(k.kind)).join(', ') : 'none',
      when(d.updatedAt),
      this.dealActions(d),
    ]);
    const counts = STAGE_ORDER.map((s) => [s, records.filter((d) => d.stage === s).length] as const).filter(([, n]) => n > 0);
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'deals-h' },
      el('h2', { id: 'deals-h' }, 'Deals by stage'),
      counts.length ? el('p', { class: 'sub stage-counts' }, counts.map(([s, n]) => `${words(s)} ${n}`).join(' · ')) : null,
      rows.length
        ? table(
            total > records.length ? `${records.length} shown of ${total} deals` : plural(total, 'deal'),
            ['Deal', 'Stage', 'Machine', 'Open checkpoints', 'Updated', 'Action'],
            rows,
            'deals-table',
          )
        : el('p', {}, 'No placement deals yet.'),
    );
  }

  /** The venue's signature at lease_sent, and cancelling a deal still in the pipeline (the API says which may be). */
  private dealActions(d: Deal): Node | string {
    const name = dealName(d, d.id);
    if (d.stage === 'live' || d.stage === 'cancelled') return '—';
    return el(
      'span',
      { class: 'deal-actions' },
      d.stage === 'lease_sent'
        ? this.button(
            'Record signature',
            `Record signature for ${name}`,
            () =>
              void this.act(
                `Signature recorded for ${name}`,
                this.api.POST('/api/v1/dfy/deals/{dealId}/lease/signature', { params: { path: { dealId: d.id } } }),
              ),
          )
        : null,
      this.button('Cancel…', `Cancel the deal for ${name}`, () => this.cancel(d, name)),
    );
  }

  private cancel(d: Deal, name: string): void {
    const reason = el('input', { id: 'cancel-reason', type: 'text', required: true, maxlength: 500, autocomplete: 'off' });
    const paid = d.money.preorderPaidUsd + d.money.machinePaidUsd > 0;
    this.gate({
      title: `Cancel the deal for ${name}?`,
      content: [
        el('p', { class: 'confirm' }, `The deal at ${words(d.stage)} is cancelled for good; its open checkpoints close.`),
        paid
          ? el(
              'p',
              {},
              `Paid so far: pre-order ${usd(d.money.preorderPaidUsd)}, machine ${usd(d.money.machinePaidUsd)}, refunded ${usd(d.money.refundedUsd)}. The service refunds the payments of a deal that has not shipped.`,
            )
          : null,
        el('p', { class: 'field' }, el('label', { for: 'cancel-reason' }, 'Reason'), reason),
      ].filter((n) => n !== null),
      confirm: 'Cancel the deal',
      done: `Deal cancelled for ${name}`,
      call: () => this.api.POST('/api/v1/dfy/deals/{dealId}/cancel', { params: { path: { dealId: d.id } }, body: { reason: reason.value } }),
    });
  }

  /** One call outside a dialog: success reads the page again, a refusal is the flash in the API's words. */
  private async act(done: string, call: Promise<Answer>): Promise<void> {
    try {
      unwrap(await call);
    } catch (e) {
      return this.say({ text: wordsOf(e), error: true });
    }
    await this.reload(done);
  }

  private async reload(done: string): Promise<void> {
    try {
      this.data = await load(this.api);
      this.message = { text: done, error: false };
    } catch (e) {
      this.message = { text: wordsOf(e), error: true };
    }
    this.render();
    sayFlash(this.root, this.message);
  }

  private say(message: Flash): void {
    this.message = message;
    this.render();
    sayFlash(this.root, message);
  }
}
