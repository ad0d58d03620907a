import { ApiError, unwrap, type Api } from './api.ts';
import { el, when } from './dom.ts';
import { confirmStep, flashLine, plural, sayFlash, table, wordsOf, type Flash, type Ok } from './fleet-parts.ts';

type Fleet = Ok<'/api/v1/agent/fleet', 'get'>;
type Rollout = NonNullable<Ok<'/api/v1/agent/rollout', 'get'>>;
type Release = Ok<'/api/v1/agent/releases', 'get'>['records'][number];
type Cabinet = Fleet['machines'][number];

interface Data {
  fleet: Fleet;
  /** The rollout: the admin read's answer, else what the fleet view carries (operators). */
  rollout: Rollout | null;
  /** The release registry: admins only (null for anyone the API refuses). */
  releases: Release[] | null;
}

/**
 * The fleet view (operators: their own cabinets); for admins (`GET /api/v1/auth/me` says so) also the rollout and the
 * release registry, which are admin reads — nobody else asks for them.
 */
async function load(api: Api): Promise<Data> {
  const [fleet, me] = await Promise.all([api.GET('/api/v1/agent/fleet', { params: { query: { size: 100 } } }), api.GET('/api/v1/auth/me')]);
  const f = unwrap(fleet);
  const data: Data = { fleet: f, rollout: f.rollout, releases: null };
  if (!unwrap(me).admin) return data;
  const [rollout, releases] = await Promise.all([api.GET('/api/v1/agent/rollout'), api.GET('/api/v1/agent/releases')]);
  try {
    data.rollout = unwrap(rollout);
    data.releases = unwrap(releases).records;
  } catch (e) {
    // an admin whose credential lacks the full admin power: the fleet view's rollout, no registry
    if (!(e instanceof ApiError) || e.status !== 403) throw e;
  }
  return data;
}

/** `/console/agents`: versions across the fleet, the rollout (hold / resume for admins), blocked and deferring cabinets. */
export async function agentsView(api: Api): Promise<HTMLElement> {
  return new AgentsView(api).mount();
}

class AgentsView {
  private data: Data | null = null;
  private readonly root = el('section', { class: 'view agents', 'aria-labelledby': 'agents-h' });
  private readonly dialog = el('dialog', { class: 'dialog', 'aria-labelledby': 'dlg-h' });
  private message: Flash | null = null;

  constructor(private readonly api: Api) {}

  async mount(): Promise<HTMLElement> {
    this.data = await load(this.api);
    this.render();
    return el('div', {}, this.root, this.dialog);
  }

  private render(): void {
    this.root.replaceChildren(
      el('h1', { id: 'agents-h' }, 'Agents'),
      flashLine(this.message),
      this.rolloutSection(),
      this.versionsSection(),
      this.cabinetsSection('blocked'),
      this.cabinetsSection('deferring'),
      this.releasesSection() ?? '',
    );
  }

  private rolloutSection(): HTMLElement {
    const { fleet, rollout } = this.data!;
    const admin = this.data!.releases !== null;
    const body: (Node | string)[] = [];
    if (!rollout) {
      body.push(el('p', {}, fleet.target ? `No rollout; cabinets are offered ${fleet.target}.` : 'No rollout is set.'));
    } else {
      const row = (k: string, v: Node | string) => el('div', {}, el('dt', {}, k), el('dd', {}, v));
      body.push(
        el(
          'dl',
          { class: 'rollup rollout' },
          row('Release', rollout.targetVersion),
          row('Phase', el('span', { class: `badge phase-${rollout.phase}` }, rollout.phase)),
          row('Reach', `${rollout.canary.length ? `${plural(rollout.canary.length, 'canary cabinet')} + ` : ''}${rollout.percent}% of the rest`),
          row('On the release', `${fleet.onTarget} of ${plural(fleet.eligible, 'eligible cabinet')}`),
          row('Health', `${fleet.blocked} blocked · ${fleet.deferring} deferring · ${fleet.pinned} pinned`),
          row('Set', when(rollout.setAt)),
        ),
      );
      if (rollout.note) body.push(el('p', { class: 'note' }, `Note: ${rollout.note}`));
      if (rollout.phase === 'held') body.push(el('p', { class: 'warn held' }, `Held ${when(rollout.heldAt)}: ${rollout.holdReason ?? ''}`));
      if (admin && rollout.phase === 'rolling') body.push(this.button('Hold the rollout', () => this.confirmHold(rollout)));
      if (admin && rollout.phase === 'held') body.push(this.button('Resume the rollout', () => this.confirmResume(rollout)));
      if (!admin && rollout.phase !== 'complete') body.push(el('p', { class: 'sub' }, "Holding and resuming the rollout is for the service's admins."));
    }
    return el('section', { class: 'card', 'aria-labelledby': 'rollout-h' }, el('h2', { id: 'rollout-h' }, 'Rollout'), ...body);
  }

  private versionsSection(): HTMLElement {
    const f = this.data!.fleet;
    const versions = Object.entries(f.byVersion).sort(([, a], [, b]) => b - a);
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'versions-h' },
      el('h2', { id: 'versions-h' }, 'Versions'),
      f.total === 0
        ? el('p', {}, 'No cabinets yet.')
        : table(
            `Agent versions on ${plural(f.total, 'cabinet')}`,
            ['Version', 'Cabinets'],
            versions.map(([v, n]) => [v === f.target ? `${v} (target)` : v, String(n)]),
            'versions-table',
          ),
    );
  }

  private cabinetsSection(kind: 'blocked' | 'deferring'): HTMLElement {
    const f = this.data!.fleet;
    const list = f.machines.filter((m) => m[kind] !== null);
    const count = kind === 'blocked' ? f.blocked : f.deferring;
    const title = kind === 'blocked' ? 'Blocked cabinets' : 'Deferring cabinets';
    const rows = list.map((m) => [m.machineNo, m.agentVersion ?? 'unreported', ...this.reason(m, kind)]);
    return el(
      'section',
      { class: 'card', 'aria-labelledby': `${kind}-h` },
      el('h2', { id: `${kind}-h` }, title),
      el(
        'p',
        { class: 'sub' },
        kind === 'blocked'
          ? 'Cabinets that refuse the offered version: it needs a newer running version first (its signed minFrom), or it was reverted here before.'
          : 'Cabinets putting the offered version off for now (busy vending, a door open, outside their upgrade window).',
      ),
      rows.length === 0
        ? el('p', {}, `No ${kind} cabinets.`)
        : table(
            count > rows.length ? `${rows.length} shown of ${count} ${kind} cabinets` : plural(count, `${kind} cabinet`),
            ['Cabinet', 'Running', 'Offered', 'Reason', 'Since'],
            rows,
            `${kind}-table`,
          ),
    );
  }

  private reason(m: Cabinet, kind: 'blocked' | 'deferring'): string[] {
    if (kind === 'blocked' && m.blocked) {
      const b = m.blocked;
      const why = b.minFrom === b.version ? 'reverted here before' : `needs ${b.minFrom} or later running first`;
      return [b.version, `${why} (reported ${plural(b.count, 'time')})`, when(b.firstReportedAt)];
    }
    if (kind === 'deferring' && m.deferring) {
      const d = m.deferring;
      return [d.version, `${d.reason} (reported ${plural(d.count, 'time')})`, when(d.firstReportedAt)];
    }
    return ['', '', ''];
  }

  private releasesSection(): HTMLElement | null {
    const releases = this.data!.releases;
    if (releases === null) return null;
    const rows = [...releases].reverse().map((r) => [r.version, when(r.publishedAt), r.minFrom ?? '—', r.migration ? 'yes' : 'no', r.offered ? 'yes' : 'no']);
    return el(
      'section',
      { class: 'card', 'aria-labelledby': 'releases-h' },
      el('h2', { id: 'releases-h' }, 'Releases'),
      rows.length === 0
        ? el('p', {}, 'No release is published.')
        : table(`${plural(releases.length, 'release')}, newest first`, ['Version', 'Published', 'Min. from', 'Migration', 'Offered'], rows, 'releases-table'),
    );
  }

  private button(label: string, onClick: () => void): HTMLButtonElement {
    const b = el('button', { type: 'button' }, label);
    b.addEventListener('click', onClick);
    return b;
  }

  private confirmHold(r: Rollout): void {
    const reason = el('input', { id: 'hold-reason', type: 'text', maxlength: 500, autocomplete: 'off' });
    confirmStep(this.dialog, {
      title: `Hold the rollout of ${r.targetVersion}?`,
      content: [
        el('p', { class: 'confirm' }, 'Cabinets already on ', el('b', {}, r.targetVersion), ' keep it; no other cabinet is offered it until you resume.'),
        el('p', { class: 'field' }, el('label', { for: 'hold-reason' }, 'Reason'), reason),
      ],
      confirm: `Hold ${r.targetVersion}`,
      call: () => this.api.POST('/api/v1/agent/rollout/hold', { body: { reason: reason.value } }),
      done: () => this.reload(`Rollout of ${r.targetVersion} held`),
    });
  }

  private confirmResume(r: Rollout): void {
    confirmStep(this.dialog, {
      title: `Resume the rollout of ${r.targetVersion}?`,
      content: [
        el(
          'p',
          { class: 'confirm' },
          'Cabinets in the rollout are offered ',
          el('b', {}, r.targetVersion),
          ` again (${r.canary.length ? `${plural(r.canary.length, 'canary cabinet')} and ` : ''}${r.percent}% of the rest).`,
        ),
      ],
      confirm: `Resume ${r.targetVersion}`,
      call: () => this.api.POST('/api/v1/agent/rollout/resume'),
      done: () => this.reload(`Rollout of ${r.targetVersion} resumed`),
    });
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
}
