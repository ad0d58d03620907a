import { unwrap, type Api } from './api.ts';
import { el, when } from './dom.ts';

/** `/console/`: the operator's machines (name, status, last seen), each a link to its operator view. */
export async function fleetView(api: Api): Promise<HTMLElement> {
  const page = unwrap(await api.GET('/api/v1/machines', { params: { query: { size: 100 } } }));
  const rows = page.records.map((m) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row' }, el('a', { href: `/console/machines/${encodeURIComponent(m.machineNo)}` }, m.name)),
      el('td', {}, m.machineNo),
      el('td', {}, el('span', { class: `badge ${m.status}` }, m.status)),
      el('td', {}, when(m.lastSeen)),
    ),
  );
  return el(
    'section',
    { class: 'view', 'aria-labelledby': 'fleet-h' },
    el('h1', { id: 'fleet-h' }, 'Machines'),
    page.records.length === 0
      ? el('p', {}, 'No machines yet.')
      : el(
          'div',
          { class: 'table-wrap' },
          el(
            'table',
            {},
            el('caption', {}, `${page.total} machine${page.total === 1 ? '' : 's'}`),
            el(
              'thead',
              {},
              el(
                'tr',
                {},
                el('th', { scope: 'col' }, 'Name'),
                el('th', { scope: 'col' }, 'Machine'),
                el('th', { scope: 'col' }, 'Status'),
                el('th', { scope: 'col' }, 'Last seen'),
              ),
            ),
            el('tbody', {}, ...rows),
          ),
        ),
  );
}
