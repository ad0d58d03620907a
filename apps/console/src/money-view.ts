import { ApiError, unwrap, type Api } from './api.ts';
import { el, money } from './dom.ts';
import { Screen, cents, currencyOf, day, facts, plural, table, type Cell, type Ok } from './money-parts.ts';

type Pnl = Ok<'/api/v1/pnl', 'get'>;
type Payouts = Ok<'/api/v1/payouts', 'get'>;
type Statement = Payouts['statements'][number];
type Balance = Ok<'/api/v1/balance-sheet', 'get'>;

/** The period the reader asked for, from the page's own address (`?from=&to=&period=`); the API picks each default. */
interface Asked {
  from?: string;
  to?: string;
  period?: string;
}

function asked(): Asked {
  const q = new URLSearchParams(location.search);
  const out: Asked = {};
  for (const k of ['from', 'to', 'period'] as const) {
    const v = q.get(k);
    if (v) out[k] = v;
  }
  return out;
}

interface Data {
  currency: string | null;
  pnl: Pnl;
  payouts: Payouts;
  balance: Balance;
}

async function load(api: Api, a: Asked): Promise<Data> {
  const [currency, pnl, payouts, balance] = await Promise.all([
    currencyOf(api),
    api.GET('/api/v1/pnl', { params: { query: { ...(a.from ? { from: a.from } : {}), ...(a.to ? { to: a.to } : {}) } } }),
    api.GET('/api/v1/payouts', { params: { query: a.period ? { period: a.period } : {} } }),
    api.GET('/api/v1/balance-sheet', { params: { query: a.to ? { asOf: a.to } : {} } }),
  ]);
  return { currency, pnl: unwrap(pnl), payouts: unwrap(payouts), balance: unwrap(balance) };
}

/**
 * `/console/money`: the profit and loss over the chosen UTC days with its identity line as the API states it and each
 * of its terms, the host lines; the host payouts of a month, venue by venue (owed or paid; an unpaid statement of an
 * ended month can be recorded as paid after a confirmation naming the venue and the amount); the balance sheet at the
 * end of the last day with its identity. Every figure is what the API answered; the page adds nothing up.
 */
class MoneyView {
  private data: Data | null = null;
  private refusal: string | null = null;
  private readonly root = el('section', { class: 'view ledger', 'aria-labelledby': 'mo-h' });
  private readonly screen = new Screen(
    async () => void (this.data = await load(this.api, this.asked)),
    () => this.render(),
    this.root,
  );

  constructor(
    private readonly api: Api,
    private readonly asked: Asked,
  ) {}

  async mount(): Promise<HTMLElement> {
    try {
      this.data = await load(this.api, this.asked);
    } catch (e) {
      // a period the API refuses is said in its words, with the form to choose another
      if (!(e instanceof ApiError) || e.status === 401 || e.status >= 500) throw e;
      this.refusal = e.message;
    }
    this.render();
    if (this.refusal) this.screen.show(this.refusal, true);
    return el('div', {}, this.root, this.screen.dialog);
  }

  private get cur(): string | null {
    return this.data?.currency ?? null;
  }

  private render(): void {
    const d = this.data;
    const figures = d && !this.refusal ? [this.pnlSection(d.pnl), this.balanceSection(d.balance), this.payoutsSection(d.payouts)] : [];
    this.root.replaceChildren(el('h1', { id: 'mo-h' }, 'Money'), this.screen.flash(), this.periodForm(), ...figures);
  }

  /** A plain GET form: the page's address carries the period, so a reload or a shared link shows the same figures. */
  private periodForm(): HTMLElement {
    const a = this.asked;
    const d = this.data;
    const input = (id: string, label: string, type: string, value: string | undefined) =>
      el('p', { class: 'field' }, el('label', { for: id }, label), el('input', { id, name: id.slice(3), type, value: value ?? '' }));
    return el(
      'form',
      { method: 'get', action: '/console/money', class: 'card wide period', 'aria-labelledby': 'pf-h' },
      el('h2', { id: 'pf-h' }, 'Period'),
      el(
        'div',
        { class: 'period-fields' },
        input('pf-from', 'P&L from (UTC day)', 'date', a.from ?? d?.pnl.from),
        input('pf-to', 'P&L to (UTC day, inclusive)', 'date', a.to ?? d?.pnl.to),
        input('pf-period', 'Host payouts month', 'month', a.period ?? d?.payouts.period),
      ),
      el('div', { class: 'actions' }, el('button', { type: 'submit', class: 'primary' }, 'Show')),
    );
  }

  private pnlSection(p: Pnl): HTMLElement {
    const cur = this.cur;
    const m = (v: number) => money(v, cur);
    const term = (sign: string, label: string, value: number, cls = ''): Cell[] => [
      el('span', {}, el('span', { class: 'sign', 'aria-hidden': 'true' }, sign), label),
      el('span', { class: `amount ${cls}` }, m(value)),
    ];
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'pnl-h' },
      el('h2', { id: 'pnl-h' }, `Profit and loss, ${p.from} to ${p.to} (UTC)`),
      el(
        'div',
        { class: 'identity', id: 'pnl-identity' },
        el('p', { class: 'identity-label' }, 'Gross − tax = net − FIFO cost − host share − referrals − payroll − 2% fee − expenses = operator net'),
        el('p', { class: 'identity-line' }, el('output', { 'aria-label': 'The P&L identity, as the API states it' }, p.identity)),
      ),
      table(
        `${plural(p.vends, 'sale')} in gross; ${plural(p.refundedCount, 'refunded order')} (${cents(p.refundedCents, cur)}) not in it`,
        ['Line', 'Amount'],
        [
          term('', 'Gross', p.gross),
          term('− ', 'Tax', p.tax),
          term('= ', 'Net', p.net, 'sub-total'),
          term('− ', 'FIFO cost of goods', p.fifoCogs),
          term('− ', 'Host share', p.hostShare),
          term('− ', 'Referrals', p.referrals),
          term('− ', 'Payroll', p.payroll),
          term('− ', `Fee (${p.feeBps} bps)`, p.fee),
          term('− ', 'Expenses', p.expenses),
        ],
        term('= ', 'Operator net', p.operatorNet, 'total'),
      ),
      p.hostLines.length === 0
        ? el('p', {}, 'No host lines in this range.')
        : table(
            'Host share, line by line',
            ['Venue', 'Share', 'Machine', 'Vends', 'Net sales', 'Rate', 'Rule', 'Paid'],
            p.hostLines.map((l) => [
              l.venueName,
              m(l.share),
              l.machineNo,
              String(l.vends),
              m(l.netSales),
              `${l.bps} bps`,
              l.commissionRule,
              l.paid ? 'paid' : 'not yet',
            ]),
          ),
    );
  }

  private balanceSection(b: Balance): HTMLElement {
    const c = (v: number) => cents(v, this.cur);
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'bs-h' },
      el('h2', { id: 'bs-h' }, `Balance sheet at the end of ${b.asOf} (UTC)`),
      el(
        'div',
        { class: 'identity', id: 'bs-identity' },
        el('p', { class: 'identity-label' }, 'Assets = liabilities + equity'),
        el(
          'p',
          { class: 'identity-line' },
          el('output', { 'aria-label': 'The balance sheet identity, as the API states it' }, b.identity),
          el('span', { class: `badge ${b.balanced ? 'balanced' : 'unbalanced'}` }, b.balanced ? 'balanced' : 'not balanced'),
        ),
      ),
      el('h3', {}, 'Assets'),
      facts([
        ['Cash', c(b.assets.cashCents)],
        ['Inventory (FIFO)', c(b.assets.inventoryCents)],
        ['Total', c(b.assets.totalCents)],
      ]),
      el('h3', {}, 'Liabilities'),
      facts([
        ['Sales tax payable', c(b.liabilities.salesTaxPayableCents)],
        ['Host commission payable', c(b.liabilities.hostCommissionPayableCents)],
        ['Refunds owed', c(b.liabilities.refundsOwedCents)],
        ['Awaiting vend', c(b.liabilities.awaitingVendCents)],
        ['Total', c(b.liabilities.totalCents)],
      ]),
      el('h3', {}, 'Equity'),
      facts([
        ['Retained earnings', c(b.equity.retainedEarningsCents)],
        ['Total', c(b.equity.totalCents)],
      ]),
    );
  }

  private payoutsSection(p: Payouts): HTMLElement {
    const cur = this.cur;
    // what is owed and what to do first: on a phone the rest of the row scrolls in its frame
    const rows = p.statements.map((s): Cell[] => [
      s.venueName,
      el('span', { class: 'amount' }, money(s.total, cur)),
      el('span', { class: `badge ${s.status}`, 'data-statement-status': s.venueId }, s.status),
      s.status === 'paid'
        ? `${day(s.paidAt)}${s.reference ? ` · ${s.reference}` : ''}`
        : s.payable
          ? this.screen.button('Record as paid…', () => this.confirmPaid(s), `Record as paid: ${s.venueName}, ${s.period}`)
          : 'the month has not ended',
      s.lines.map((l) => l.machineNo).join(', '),
      String(s.vends),
      cents(s.netSalesCents, cur),
      `${s.bps} bps`,
    ]);
    return el(
      'section',
      { class: 'card wide', 'aria-labelledby': 'po-h' },
      el('h2', { id: 'po-h' }, `Host payouts, ${p.period}`),
      p.statements.length === 0
        ? el('p', {}, 'No host statements for this month.')
        : table(
            `What each venue’s host is owed or was paid for ${p.period}`,
            ['Venue', 'Host share', 'Status', 'Paid', 'Machines', 'Vends', 'Net sales', 'Rate'],
            rows,
          ),
    );
  }

  private confirmPaid(s: Statement): void {
    const cur = this.cur;
    const reference = el('input', { id: 'po-ref', name: 'reference', type: 'text', maxlength: 200 });
    const amount = money(s.total, cur);
    this.screen.confirm({
      title: `Record ${s.venueName}'s payout as paid?`,
      lead: 'The statement is frozen from then on; it is recorded once. No money moves here: record a payment you made.',
      facts: [
        ['Venue', s.venueName],
        ['Month', s.period],
        ['Machines', s.lines.map((l) => `${l.machineNo} (${plural(l.vends, 'vend')})`).join(', ')],
        ['Net sales', cents(s.netSalesCents, cur)],
        ['Rate', `${s.bps} bps`],
        ['Amount', el('strong', { class: 'amount' }, amount)],
      ],
      extra: [el('p', { class: 'field' }, el('label', { for: 'po-ref' }, 'Payment reference (optional)'), reference)],
      confirm: `Record ${amount} as paid`,
      done: `${s.venueName}: ${amount} recorded as paid for ${s.period}`,
      call: () =>
        this.api.POST('/api/v1/payouts', {
          body: { period: s.period, venueId: s.venueId, ...(reference.value.trim() ? { reference: reference.value.trim() } : {}) },
        }),
    });
  }
}

export async function moneyView(api: Api): Promise<HTMLElement> {
  return new MoneyView(api, asked()).mount();
}
