import { csrfToken, unwrap, type Api } from './api.ts';
import { el } from './dom.ts';
import { table, type Ok } from './fleet-parts.ts';

type Me = Ok<'/api/v1/access/me', 'get'>;

/** A plain form to one of the cloud's switch steps (docs/decisions/console.md "The access-group switch"): the page's token as `_csrf`. */
export function switchForm(step: 'switch' | 'back', label: string, aria: string, groupId?: string): HTMLFormElement {
  return el(
    'form',
    { method: 'post', action: `/console/access/${step}`, class: `switch-form ${step}` },
    el('input', { type: 'hidden', name: '_csrf', value: csrfToken() }),
    groupId === undefined ? null : el('input', { type: 'hidden', name: 'groupId', value: groupId }),
    el('button', { type: 'submit', class: 'primary', 'aria-label': aria }, label),
  );
}

/** The banner's words while switched: whose fleet, as which group (GET /api/v1/access/me). */
export function switchedWords(me: Me): string | null {
  return me.restricted && me.group ? `Viewing ${me.operatorEmail}’s fleet as ${me.group.name}` : null;
}

/**
 * `/console/access`: the fleets other operators opened to this person through an access group (spec 1 §4.2), each
 * with a "Switch" form; while switched, the group's machines and scopes and the way back. One read:
 * `GET /api/v1/access/me`; the switch itself is the cloud's form step (the session cookie is HttpOnly).
 */
export async function accessView(api: Api): Promise<HTMLElement> {
  const me = unwrap(await api.GET('/api/v1/access/me'));
  const root = el('section', { class: 'view access', 'aria-labelledby': 'ac-h' }, el('h1', { id: 'ac-h' }, 'Switch fleet'));
  if (me.restricted && me.group) {
    root.append(
      el('p', { class: 'switched-now' }, `${switchedWords(me)}.`),
      el(
        'section',
        { class: 'card', 'aria-labelledby': 'grp-h' },
        el('h2', { id: 'grp-h' }, `Group ${me.group.name}`),
        el(
          'dl',
          { class: 'rollup' },
          el('div', {}, el('dt', {}, 'Machines'), el('dd', {}, me.group.machineNos.join(', ') || 'none')),
          el('div', {}, el('dt', {}, 'What you may do'), el('dd', {}, me.scopes.join(', ') || 'nothing')),
        ),
        switchForm('back', 'Back to my fleet', 'Back to my fleet'),
      ),
    );
    return root;
  }
  const rows = me.grants.map((g) => [
    el('span', {}, g.operatorName, el('small', {}, ` ${g.operatorEmail}`)),
    g.groupName,
    switchForm('switch', 'Switch', `Switch to ${g.operatorName}’s fleet as ${g.groupName}`, g.groupId),
  ]);
  root.append(
    el('p', {}, `You are signed in as ${me.username}, on your own fleet.`),
    rows.length
      ? table(`${rows.length} fleet${rows.length === 1 ? '' : 's'} you may switch to`, ['Operator', 'Access group', 'Action'], rows, 'grants-table')
      : el('p', { class: 'empty' }, 'No operator has given you an access group, so there is no other fleet to switch to.'),
  );
  return root;
}
